// berth login: a token for this computer, saved in the user's config file.
//   Through the browser (the default): the server gives a code and a link, the user approves
//   the code on the dashboard, and the CLI, polling meanwhile, receives a token made for it.
//   With --token: a token made on the Integrations page, read from stdin (so it stays out of the
//   shell's history and the process list), checked with the server before it is saved.
import os from "node:os";
import type { DeviceLoginApproved, DeviceLoginStarted, WhoAmIResponse } from "../../../common/deviceLogin";
import { configFileOf, connect, settingsOf, type Context } from "../context";
import { readUserConfig, writeUserConfig } from "../config";
import { ApiError, CliError } from "../errors";
import { sleep, type BerthClient } from "../http";

/** RFC 8628's answer to slow_down: wait this much longer between polls from then on. */
const SLOW_DOWN_SECONDS = 5;
/** The server's limit on a client name; a longer host name is cut. */
const CLIENT_NAME_MAX = 47;

export interface LoginOptions {
  server?: string | undefined;
  token?: boolean | undefined;
  /** Waits between polls; tests pass a quicker one. */
  wait?: (ms: number) => Promise<void>;
}

export async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const settings = settingsOf(ctx, { server: options.server });
  const client = connect(ctx, settings, { anonymous: true });
  const saved = options.token ? await tokenFromStdin(ctx, client.server) : await deviceLogin(ctx, client, options.wait ?? sleep);
  const file = configFileOf(ctx);
  writeUserConfig(file, { ...readUserConfig(file), server: client.server, token: saved.token, email: saved.email });
  ctx.reporter.line(`Signed in to ${client.server} as ${saved.email}. The token is saved in ${file}.`);
  if (ctx.env.BERTH_TOKEN) ctx.reporter.line("Note: BERTH_TOKEN is set, and it comes first: unset it to use this sign-in.");
}

async function deviceLogin(ctx: Context, client: BerthClient, wait: (ms: number) => Promise<void>): Promise<{ token: string; email: string }> {
  const clientName = os.hostname().trim().slice(0, CLIENT_NAME_MAX) || undefined;
  const started = await client.post<DeviceLoginStarted>("/api/cli/login", { client_name: clientName ?? null });
  ctx.reporter.line(`To sign in, open this link and approve the code ${started.user_code}:`);
  ctx.reporter.line(`  ${started.verification_url}`);
  ctx.reporter.line("Waiting for you to approve it… (Ctrl-C to stop)");

  let interval = started.interval;
  const deadline = Date.now() + started.expires_in * 1000;
  while (Date.now() < deadline) {
    await wait(interval * 1000);
    const answer = await client.request<DeviceLoginApproved | { error: { code: string; message: string } }>("/api/cli/login/poll", {
      method: "POST",
      json: { device_code: started.device_code },
      // Polling again is what the flow is made of, so a dropped connection is simply retried.
      idempotent: true,
      expect: [428, 429],
    });
    if (answer.status === 200) {
      const approved = answer.body as DeviceLoginApproved;
      return { token: approved.token, email: approved.user.email };
    }
    if (answer.status === 429) interval += SLOW_DOWN_SECONDS;
  }
  throw new CliError(`the code ${started.user_code} expired before it was approved: run berth login again`);
}

async function tokenFromStdin(ctx: Context, server: string): Promise<{ token: string; email: string }> {
  if (ctx.stdin.isTTY) ctx.reporter.line("Paste an API token (made under Integrations on the dashboard), then press Enter:");
  const token = (await readFirstLine(ctx.stdin)).trim();
  if (token === "") throw new CliError("no token on stdin: pipe one in, e.g. berth login --token < token.txt");
  const client = connect(ctx, { server, token, site: undefined, sources: {}, projectFile: undefined });
  try {
    const who = await client.get<WhoAmIResponse>("/api/whoami");
    return { token, email: who.user.email };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new CliError(`${server} refused the token: ${error.message}`);
    throw error;
  }
}

/** The first line of a stream (or all of it, if it has no line break). */
function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const end = text.indexOf("\n");
      if (end !== -1) finish(text.slice(0, end));
    };
    const finish = (line: string) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", reject);
      stream.pause();
      resolve(line);
    };
    const onEnd = () => finish(text);
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", reject);
    stream.resume();
  });
}
