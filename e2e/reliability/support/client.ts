// The HTTP side of the reliability tests: API calls as a signed-in user and reads of sites with
// a Host header. Every call opens its own connection (agent: false): a pooled socket to a process
// that was just killed would fail the next request for a reason that has nothing to do with Berth.
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { waitFor } from "../../support/pages";
import { multipartBody, type UploadPart } from "../../../server/test/sites";
import type { CrashableBerth } from "./crashable";

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function request(
  port: number,
  method: string,
  pathname: string,
  headers: http.OutgoingHttpHeaders,
  body?: Buffer,
  agent: http.Agent | false = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path: pathname, headers: body ? { ...headers, "content-length": body.length } : headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A file of a site as a browser gets it, decoded when it came compressed. */
export async function getSiteFile(
  port: number,
  host: string,
  pathname: string,
  encoding?: "br" | "gzip",
  agent: http.Agent | false = false,
): Promise<Answer> {
  const answer = await request(port, "GET", encodeURI(pathname), { host, ...(encoding ? { "accept-encoding": encoding } : {}) }, undefined, agent);
  const coding = answer.headers["content-encoding"];
  if (coding === "br") return { ...answer, body: brotliDecompressSync(answer.body) };
  if (coding === "gzip") return { ...answer, body: gunzipSync(answer.body) };
  return answer;
}

export class ApiClient {
  cookie = "";

  constructor(private readonly berth: CrashableBerth) {}

  /** Signs a new user up through the outbox and signs them in. */
  async signUp(email: string, password: string): Promise<void> {
    const post = (p: string, body: unknown) => this.send("POST", p, Buffer.from(JSON.stringify(body)), "application/json");
    const signedUp = await post("/api/auth/sign-up/email", { email, password, name: "Reliability" });
    if (signedUp.status !== 200) throw new Error(`sign-up: ${signedUp.status} ${signedUp.body.toString()}`);
    const link = new URL(await waitFor(() => this.berth.outbox.lastLink(email, /Confirm your e-mail/)));
    await request(this.berth.port, "GET", link.pathname + link.search, {});
    const signedIn = await post("/api/auth/sign-in/email", { email, password });
    const setCookie = signedIn.headers["set-cookie"] ?? [];
    const cookie = setCookie.find((c) => c.startsWith("berth.session_token="))?.split(";")[0];
    if (signedIn.status !== 200 || !cookie) throw new Error(`sign-in: ${signedIn.status} ${signedIn.body.toString()}`);
    this.cookie = cookie;
  }

  send(method: string, pathname: string, body?: Buffer, contentType?: string): Promise<Answer> {
    return request(
      this.berth.port,
      method,
      pathname,
      {
        origin: this.berth.url,
        host: `localhost:${this.berth.port}`,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(contentType ? { "content-type": contentType } : {}),
      },
      body,
    );
  }

  json(method: string, pathname: string, body: unknown = {}): Promise<Answer> {
    return this.send(method, pathname, Buffer.from(JSON.stringify(body)), "application/json");
  }

  multipart(method: string, pathname: string, fields: Record<string, string>, file: UploadPart): Promise<Answer> {
    const { body, contentType } = multipartBody(fields, file);
    return this.send(method, pathname, body, contentType);
  }
}

export function parse<T>(answer: Answer): T {
  return JSON.parse(answer.body.toString()) as T;
}
