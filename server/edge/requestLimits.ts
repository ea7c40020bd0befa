// Limits on a request itself, checked before anything is looked up or remembered: every target a
// site host answers may become a remembered route, and every host name a remembered label.
import type { OutgoingHttpHeaders } from "node:http";
import { NEVER_CACHE } from "../../common/siteCaching";

/**
 * The longest request target (path and query) a site host answers: 8 KB, as nginx (whose default
 * large_client_header_buffers answer 414 above 8 KB) and CloudFront (8,192 bytes). Browsers send
 * far longer ones, but no link of a static site is that long, and a longer one gets 414 before
 * anything is prepared or kept for it.
 */
export const MAX_TARGET_LENGTH = 8 * 1024;

/** A short plain answer that refuses a request before it reaches a site. */
export interface Refusal {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

function refusal(status: number, text: string): Refusal {
  const body = Buffer.from(text);
  return {
    status,
    body,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-length": body.length,
      "cache-control": NEVER_CACHE,
      "x-content-type-options": "nosniff",
    },
  };
}

export const TARGET_TOO_LONG = refusal(414, "URI Too Long: this address is longer than 8 KB.\n");
/** A Host that no DNS name can be (http/host.ts impossibleHost). */
export const IMPOSSIBLE_HOST = refusal(400, "Bad Request: no host name is that long.\n");
