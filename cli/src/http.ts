// Talking to a Berth server: JSON in and out, the token as `Authorization: Bearer`, the server's
// `{ error: { code, message } }` as an ApiError, and retries where a retry is safe.
//
// Retried, with exponential backoff and jitter (so many CI jobs that failed together do not
// come back together): 429 (after Retry-After when the server sends one), and for requests that
// may be sent twice (reads, and every step of a deploy, which the API makes safe to repeat) also
// 502, 503, 504 and connections that dropped or timed out. A 429 is retried for any request,
// since the server did nothing with it.
//
// Requests go through node:http (node:https for an https server), not fetch: fetch's first call
// loads and compiles its whole client, about 35 ms of every run of a command that makes one.
import http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ApiError, CliError, oneLine } from "./errors";
import { CLI_VERSION } from "./version";

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The first wait; each later one doubles, up to maxMs. */
  baseMs: number;
  maxMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 500, maxMs: 15_000, maxRetryAfterMs: 120_000 };

/** A request body: the whole of it, or an async iterable of chunks, streamed. */
export type RequestBody = string | Uint8Array | AsyncIterable<Uint8Array>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Sent as JSON. */
  json?: unknown;
  /** A raw body, made afresh for every try (a file stream cannot be read twice). */
  body?: () => { data: RequestBody; type: string; length?: number };
  /** Safe to send twice: retried after 5xx and dropped connections too. */
  idempotent?: boolean;
  /** Seconds without an answer before the try is abandoned (and retried if idempotent). */
  timeoutSeconds?: number;
  /** Statuses that are answers, not errors: returned to the caller as they are. */
  expect?: number[];
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: http.IncomingHttpHeaders;
}

export interface ClientOptions {
  server: string;
  token?: string | undefined;
  retry?: RetryPolicy;
  /** Told about each retry, so a long wait is not silent. */
  onRetry?: (message: string) => void;
  /** Waits; tests pass a faster clock. */
  sleep?: (ms: number) => Promise<void>;
  /** Told about each answer (BERTH_DEBUG). */
  trace?: (what: string) => void;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before try `attempt + 1` (attempt counts from 1): a random time up to the doubled base. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export class BerthClient {
  readonly server: string;
  private readonly token: string | undefined;
  private readonly retry: RetryPolicy;
  private readonly onRetry: (message: string) => void;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly trace: ((what: string) => void) | undefined;

  constructor(options: ClientOptions) {
    this.server = options.server;
    this.token = options.token;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.onRetry = options.onRetry ?? (() => undefined);
    this.wait = options.sleep ?? sleep;
    this.trace = options.trace;
  }

  get hasToken(): boolean {
    return this.token !== undefined;
  }

  async request<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const method = options.method ?? (options.json !== undefined || options.body ? "POST" : "GET");
    const idempotent = options.idempotent ?? (method === "GET" || method === "PUT");
    const url = this.server + path;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.retry.attempts;
      let response: Response;
      const sent = performance.now();
      try {
        response = await this.send(url, method, options);
        this.trace?.(`${method} ${path}: ${response.status} after ${(performance.now() - sent).toFixed(0)} ms`);
      } catch (error) {
        const { reason, dropped } = failureOf(error);
        // Refused or unknown: nothing is listening there (a wrong address, a server that is down),
        // which waiting rarely mends. Dropped or timed out: the kind of failure a retry is for.
        if (!dropped || !idempotent || last) throw new CliError(`could not reach ${this.server}: ${reason}`);
        const delay = backoffMs(attempt, this.retry);
        this.onRetry(`${reason}; trying again in ${seconds(delay)}`);
        await this.wait(delay);
        continue;
      }
      if (response.ok || options.expect?.includes(response.status)) {
        return { status: response.status, body: (await readBody(response)) as T, headers: response.headers };
      }
      const retryable = response.status === 429 || (idempotent && RETRYABLE_STATUS.has(response.status));
      const told = retryAfterMs(header(response, "retry-after"));
      if (!retryable || last || (told !== undefined && told > this.retry.maxRetryAfterMs)) throw await errorOf(response);
      response.discard();
      const delay = told ?? backoffMs(attempt, this.retry);
      this.onRetry(
        `${response.status === 429 ? "the server asked to slow down" : `the server answered ${response.status}`}; trying again in ${seconds(delay)}`,
      );
      await this.wait(delay);
    }
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>(path).then((answer) => answer.body);
  }

  post<T>(path: string, json: unknown, options: Omit<RequestOptions, "json" | "method"> = {}): Promise<T> {
    return this.request<T>(path, { ...options, method: "POST", json }).then((answer) => answer.body);
  }

  private async send(url: string, method: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { "user-agent": `berth-cli/${CLI_VERSION} node/${process.versions.node}`, accept: "application/json" };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: RequestBody | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.body) {
      const made = options.body();
      headers["content-type"] = made.type;
      if (made.length !== undefined) headers["content-length"] = String(made.length);
      body = made.data;
    }
    if (typeof body === "string" || body instanceof Uint8Array) headers["content-length"] = String(Buffer.byteLength(body));
    const target = new URL(url);
    const transport: Transport = target.protocol === "https:" ? await import("node:https") : http;
    return new Promise<Response>((resolve, reject) => {
      const request = transport.request(target, { method, headers, agent: agentFor(transport) });
      let timer: NodeJS.Timeout | undefined;
      if (options.timeoutSeconds !== undefined) {
        timer = setTimeout(
          () => request.destroy(Object.assign(new Error("no answer in time"), { name: "TimeoutError" })),
          options.timeoutSeconds * 1000,
        );
      }
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      request.on("error", fail);
      request.on("response", (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("error", fail);
        const text = new Promise<string>((done, broken) => {
          incoming.on("end", () => {
            clearTimeout(timer);
            done(Buffer.concat(chunks).toString("utf8"));
          });
          incoming.on("error", broken);
          incoming.on("close", () => {
            if (!incoming.complete) broken(Object.assign(new Error("the connection dropped"), { code: "ECONNRESET" }));
          });
        });
        text.catch(() => undefined);
        const status = incoming.statusCode ?? 0;
        resolve({
          status,
          statusText: incoming.statusMessage ?? "",
          ok: status >= 200 && status < 300,
          headers: incoming.headers,
          text: () => text,
          discard: () => {
            clearTimeout(timer);
            incoming.resume();
          },
        });
      });
      if (body === undefined) request.end();
      else if (typeof body === "string" || body instanceof Uint8Array) request.end(body);
      // A body that fails to read (a file gone meanwhile) ends the request with its error.
      else pipeline(Readable.from(body), request).catch((error: Error) => request.destroy(error));
    });
  }
}

/** What this client reads of an answer. */
interface Response {
  status: number;
  statusText: string;
  ok: boolean;
  headers: http.IncomingHttpHeaders;
  /** The whole body as text; rejects when the connection drops before its end. */
  text(): Promise<string>;
  /** Reads the body into nothing, so the connection can be used again. */
  discard(): void;
}

function header(response: Response, name: string): string | null {
  const value = response.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/**
 * One keep-alive agent per scheme, so a deploy's requests share connections. Node's agent unrefs
 * a connection while it is idle, so one kept open never holds the command from exiting.
 */
type Transport = Pick<typeof http, "request" | "Agent">;
const agents = new Map<Transport, http.Agent>();
function agentFor(transport: Transport): http.Agent {
  let agent = agents.get(transport);
  if (!agent) {
    agent = new transport.Agent({ keepAlive: true });
    agents.set(transport, agent);
  }
  return agent;
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

/** Why a request got no answer, in a few words, and whether the connection was made and then lost. */
function failureOf(error: unknown): { reason: string; dropped: boolean } {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return { reason: "no answer in time", dropped: true };
  // node:http puts the system's code on the error itself; a cause is kept for errors that carry one.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code ?? "";
  if (code === "ECONNREFUSED") return { reason: "connection refused", dropped: false };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { reason: "unknown host", dropped: false };
  if (code.startsWith("ERR_TLS") || code.includes("CERT")) return { reason: `TLS failed (${code})`, dropped: false };
  if (["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"].includes(code)) return { reason: "the connection dropped", dropped: true };
  if (["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"].includes(code)) {
    return { reason: "no answer in time", dropped: true };
  }
  return { reason: oneLine(cause?.message ?? (error as Error)?.message ?? String(error)), dropped: false };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The server's error as an ApiError: its own message where it sent one. */
async function errorOf(response: Response): Promise<ApiError> {
  const body = await readBody(response).catch(() => undefined);
  const error = (body as { error?: { code?: unknown; message?: unknown; detail?: unknown } } | undefined)?.error;
  const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
  if (typeof error?.message === "string" && error.message.trim() !== "") {
    // Upload refusals put a title in `message` and the numbers in `detail` ("File too large" / "Maximum file size is 50MB").
    const detail = typeof error.detail === "string" && error.detail.trim() !== "" ? error.detail : undefined;
    const text = detail === undefined ? error.message : `${error.message.replace(/[.:]\s*$/, "")}: ${detail}`;
    return new ApiError(response.status, code, oneLine(text));
  }
  if (response.status >= 300 && response.status < 400) {
    const location = header(response, "location");
    return new ApiError(response.status, code, `the server redirected to ${location ?? "another address"}; use that address as the server`);
  }
  return new ApiError(response.status, code, `the server answered ${response.status} ${response.statusText}`.trim());
}
