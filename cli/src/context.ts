// What every command is given (the process's streams, environment and folders, passed in so
// tests can run commands in-process), and the steps most of them share: settings, a client
// for the server with the token, and a site named by its subdomain.
import type { SiteListResponse, SiteResponse } from "../../common/sites";
import { configPath } from "./config";
import { traceOf } from "./debug";
import { CliError } from "./errors";
import { BerthClient, type RetryPolicy } from "./http";
import type { Reporter } from "./progress";
import { resolveSettings, type Settings } from "./settings";

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Context {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The result only (a URL, a table, JSON). */
  stdout: Output;
  /** Everything said along the way. */
  reporter: Reporter;
  /** Retries' timing; tests shorten it. */
  retry?: RetryPolicy;
}

export const configFileOf = (ctx: Context) => configPath(ctx.env);

export function settingsOf(
  ctx: Context,
  flags: { server?: string | undefined; site?: string | undefined },
  projectDirs: string[] = [ctx.cwd],
): Settings {
  return resolveSettings({ flags, env: ctx.env, projectDirs: [...new Set(projectDirs)], configFile: configFileOf(ctx) });
}

const LOCAL_HOSTS = /^(localhost|127(\.\d+){3}|\[::1\])$/i;

/** A client for the settings' server, with a token unless `anonymous`. */
export function connect(ctx: Context, settings: Settings, options: { anonymous?: boolean } = {}): BerthClient {
  if (settings.server === undefined) {
    throw new CliError("no server chosen: run berth login --server https://your-berth-server, or set BERTH_SERVER");
  }
  if (!options.anonymous && settings.token === undefined) {
    throw new CliError(`not signed in to ${settings.server}: run berth login, or set BERTH_TOKEN`);
  }
  const url = new URL(settings.server);
  if (url.protocol === "http:" && !LOCAL_HOSTS.test(url.hostname) && !options.anonymous) {
    ctx.reporter.line(`warning: ${settings.server} is plain http, so the token travels unencrypted`);
  }
  return new BerthClient({
    server: settings.server,
    token: options.anonymous ? undefined : settings.token,
    ...(ctx.retry ? { retry: ctx.retry } : {}),
    onRetry: (message) => ctx.reporter.line(message),
    ...(ctx.env.BERTH_DEBUG ? { trace: traceOf(ctx) } : {}),
  });
}

/** The user's site with this subdomain (or id), else an error that lists a few of theirs. */
export async function findSite(client: BerthClient, name: string): Promise<SiteResponse> {
  const { sites } = await client.get<SiteListResponse>("/api/sites");
  const wanted = name.trim().toLowerCase();
  const site = sites.find((s) => s.subdomain.toLowerCase() === wanted || s.id === name.trim());
  if (site) return site;
  const yours = sites
    .filter((s) => !s.is_deleted)
    .slice(0, 8)
    .map((s) => s.subdomain);
  const more = sites.length > yours.length ? ", …" : "";
  throw new CliError(`no site "${name}" on ${client.server}${yours.length > 0 ? ` (yours: ${yours.join(", ")}${more})` : ": you have no sites yet"}`);
}
