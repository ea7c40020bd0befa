// One attempt at a delivery: a POST to the checked address (target.ts), the URL's host name kept
// for the Host header, TLS's SNI and the certificate check. Redirects are not followed (a 3xx is a
// failed attempt, so a public URL cannot bounce the request to a private one), the whole attempt
// is bounded by WEBHOOK_TIMEOUT_MS, and at most RESPONSE_LIMIT bytes of the answer are read.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { WEBHOOK_TIMEOUT_MS } from "../../common/webhooks";
import type { WebhookTarget } from "./target";

/** Enough of an answer to finish reading politely; nothing of it is kept. */
const RESPONSE_LIMIT = 64 * 1024;

export interface SendResult {
  /** The answer's status, when one arrived. */
  statusCode: number | null;
  /** Milliseconds from the request to the answer's head (or to the failure). */
  ms: number;
  /** Why no answer arrived, in words for the owner's deliveries list. */
  error: string | null;
}

/** The lookup a request makes, answered with the checked address instead of a second DNS query. */
function pinnedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "Connection refused";
    case "ECONNRESET":
      return "Connection reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "Host unreachable";
    case "ETIMEDOUT":
      return "Timed out";
    default:
      return error.code?.startsWith("ERR_TLS") || error.code?.includes("CERT") ? `TLS error: ${error.message}` : error.message || "Request failed";
  }
}

export function sendWebhookRequest(
  target: WebhookTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<SendResult> {
  const { url } = target;
  const client = url.protocol === "https:" ? https : http;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        // A connection of its own, closed after: no pooled socket carries one endpoint's traffic to another.
        agent: false,
      },
      (response) => {
        // The status decides the attempt; the body is read (up to a limit) only to close cleanly.
        finish({ statusCode: response.statusCode ?? null, ms: elapsed(), error: null });
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_LIMIT) response.destroy();
        });
        response.on("error", () => undefined);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, ms: elapsed(), error: `Timed out after ${Math.round(timeoutMs / 1000)} s` });
      request.destroy();
    }, timeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", (error: NodeJS.ErrnoException) => finish({ statusCode: null, ms: elapsed(), error: describe(error) }));
    request.end(body);
  });
}
