// The client against a real HTTP server that misbehaves on purpose: what is retried (429 after
// Retry-After, 5xx and dropped connections for requests safe to repeat), what is not, and how
// the server's errors read.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, CliError } from "./errors";
import { backoffMs, BerthClient, retryAfterMs, type RetryPolicy } from "./http";

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer, attempt: number) => void;

let server: Server;
let base: string;
const routes = new Map<string, { handler: Handler; attempts: number }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const route = routes.get(req.url!);
      if (!route) return void res.writeHead(404).end();
      route.attempts += 1;
      route.handler(req, res, Buffer.concat(chunks), route.attempts);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

let n = 0;
/** A path answered by `handler`; `attempts()` says how many requests reached it. */
function route(handler: Handler) {
  const path = `/r${++n}`;
  const entry = { handler, attempts: 0 };
  routes.set(path, entry);
  return { path, attempts: () => entry.attempts };
}

const POLICY: RetryPolicy = { attempts: 4, baseMs: 100, maxMs: 1000, maxRetryAfterMs: 30_000 };

function client(token?: string) {
  const waits: number[] = [];
  const notes: string[] = [];
  const berth = new BerthClient({
    server: base,
    token,
    retry: POLICY,
    onRetry: (note) => notes.push(note),
    sleep: async (ms) => void waits.push(ms),
  });
  return { berth, waits, notes };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
const drop = (req: IncomingMessage) => req.socket.destroy();

describe("retries", () => {
  it("waits out a 429's Retry-After, for any request, then goes on", async () => {
    const r = route((_req, res, _body, attempt) =>
      attempt === 1
        ? json(res, 429, { error: { code: "rate_limited", message: "Slow down" } }, { "retry-after": "3" })
        : json(res, 201, { ok: true }),
    );
    const { berth, waits, notes } = client();
    expect(await berth.post(r.path, { a: 1 })).toEqual({ ok: true });
    expect(waits).toEqual([3000]);
    expect(notes).toEqual(["the server asked to slow down; trying again in 3 s"]);
  });

  it("does not wait for a Retry-After longer than it would: the server's message instead", async () => {
    const r = route((_req, res) =>
      json(res, 429, { error: { code: "rate_limited", message: "Too many requests. Try again in 50 minutes." } }, { "retry-after": "3000" }),
    );
    const { berth, waits } = client();
    await expect(berth.get(r.path)).rejects.toThrow("Too many requests. Try again in 50 minutes.");
    expect(waits).toEqual([]);
  });

  it("retries 502, 503 and 504 for requests safe to repeat, with growing waits", async () => {
    const r = route((_req, res, _body, attempt) =>
      attempt < 4 ? res.writeHead([502, 503, 504][attempt - 1]!).end() : json(res, 200, { done: attempt }),
    );
    const { berth, waits } = client();
    expect(await berth.get(r.path)).toEqual({ done: 4 });
    expect(waits).toHaveLength(3);
    waits.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual((POLICY.baseMs * 2 ** i) / 2);
      expect(ms).toBeLessThanOrEqual(POLICY.baseMs * 2 ** i);
    });
  });

  it("does not repeat a request that is not safe to repeat after a 503 or a dropped connection", async () => {
    const unavailable = route((_req, res) => res.writeHead(503).end());
    const { berth } = client();
    await expect(berth.post(unavailable.path, {}, { idempotent: false })).rejects.toThrow("the server answered 503 Service Unavailable");
    expect(unavailable.attempts()).toBe(1);
    const dropped = route((req) => drop(req));
    await expect(berth.post(dropped.path, {}, { idempotent: false })).rejects.toThrow(`could not reach ${base}: the connection dropped`);
    expect(dropped.attempts()).toBe(1);
  });

  it("sends a streamed body afresh after a dropped connection", async () => {
    const r = route((req, res, body, attempt) =>
      attempt === 1 ? drop(req) : json(res, 200, { got: body.toString(), length: req.headers["content-length"] }),
    );
    const { berth, notes } = client();
    let made = 0;
    const answer = await berth.request<{ got: string; length: string }>(r.path, {
      method: "PUT",
      body: () => {
        made += 1;
        return {
          data: (async function* () {
            yield Buffer.from("hello ");
            yield Buffer.from("world");
          })(),
          type: "application/octet-stream",
          length: 11,
        };
      },
    });
    expect(answer.body).toEqual({ got: "hello world", length: "11" });
    expect(made).toBe(2);
    expect(notes).toEqual([expect.stringMatching(/^the connection dropped; trying again in \d+ ms$/)]);
  });

  it("gives up after the last try, with the last answer", async () => {
    const r = route((_req, res) => json(res, 503, { error: { code: "unavailable", message: "Down for maintenance" } }));
    const { berth, waits } = client();
    await expect(berth.get(r.path)).rejects.toThrow("Down for maintenance");
    expect(r.attempts()).toBe(POLICY.attempts);
    expect(waits).toHaveLength(POLICY.attempts - 1);
  });

  it("fails at once where nothing listens", async () => {
    const closed = new BerthClient({ server: "http://127.0.0.1:1", retry: POLICY, sleep: async () => undefined });
    await expect(closed.get("/")).rejects.toBeInstanceOf(CliError);
  });
});

describe("answers", () => {
  it("sends the token and JSON, and reads JSON back", async () => {
    const r = route((req, res, body) =>
      json(res, 200, {
        auth: req.headers.authorization,
        type: req.headers["content-type"],
        body: JSON.parse(body.toString()),
        ua: req.headers["user-agent"],
      }),
    );
    const { berth } = client("berth_secret");
    expect(await berth.post(r.path, { x: 1 })).toEqual({
      auth: "Bearer berth_secret",
      type: "application/json",
      body: { x: 1 },
      ua: expect.stringMatching(/^berth-cli\/\S+ node\/\S+$/),
    });
  });

  it("reads the server's errors: code, message, and the detail of an upload refusal, on one line", async () => {
    const { berth } = client();
    const tooLarge = route((_req, res) =>
      json(res, 413, { error: { code: "file_too_large", message: "File too large", detail: "Maximum file size is\n50MB" } }),
    );
    const error = await berth.get(tooLarge.path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, code: "file_too_large", message: "File too large: Maximum file size is 50MB" });
    const plain = route((_req, res) => res.writeHead(500, { "content-type": "text/html" }).end("<h1>oops</h1>"));
    await expect(berth.post(plain.path, {})).rejects.toMatchObject({
      status: 500,
      code: "http_500",
      message: "the server answered 500 Internal Server Error",
    });
    const moved = route((_req, res) => res.writeHead(301, { location: "https://berth.example/" }).end());
    await expect(berth.get(moved.path)).rejects.toThrow("the server redirected to https://berth.example/; use that address as the server");
  });

  it("returns the statuses a caller expects instead of throwing", async () => {
    const r = route((_req, res) => json(res, 428, { error: { code: "authorization_pending", message: "Waiting" } }));
    const { berth } = client();
    const answer = await berth.request(r.path, { method: "POST", json: {}, expect: [428] });
    expect(answer.status).toBe(428);
  });
});

describe("timing", () => {
  it("backs off exponentially, capped, with jitter in the upper half", () => {
    expect(backoffMs(1, POLICY, () => 0)).toBe(50);
    expect(backoffMs(1, POLICY, () => 1)).toBe(100);
    expect(backoffMs(3, POLICY, () => 1)).toBe(400);
    expect(backoffMs(10, POLICY, () => 1)).toBe(1000);
  });

  it("reads Retry-After as seconds or a date", () => {
    expect(retryAfterMs("7")).toBe(7000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});
