// What each kind of entry the edge remembers costs, estimated once when it is added: its strings
// (stringBytes: two bytes a character) and a fixed overhead for its objects and its map slot.
// The overheads were measured on Node 20 with a full collection before and after adding
// thousands of entries, and rounded up; memory.test.ts measures them again and fails if any
// estimate falls below the heap's own figure.
import { stringBytes } from "./budget";

/** A route: the Route object, its slot in the host's map (the key is its own path string). */
export const ROUTE_BYTES = 160;
/** A prepared answer of a host's own (a file's header objects, a generated page's wrapper). */
export const ANSWER_BYTES = 2048;
/** A redirect's own answer: the answer and its header object, besides the Location string. */
export const REDIRECT_BYTES = 512;
/** A site's entry: schedule, password hash, share links' map, and its slot. */
export const SITE_BYTES = 640;
/** Each share link a site's entry carries. */
export const SHARE_LINK_BYTES = 160;
/** A label known to serve nothing. */
export const UNKNOWN_LABEL_BYTES = 96;
/** A served host with its (empty) route and cookie maps. */
export const SERVED_HOST_BYTES = 1536;
/** A remembered cookie value and its expiry. */
export const COOKIE_BYTES = 96;
/** A Host field value as sent and the label it names. */
export const HOST_VALUE_BYTES = 96;
/** A deployment's manifest, besides its files. */
export const MANIFEST_BYTES = 1024;
/** Each file of a manifest: its object, its hashes (three with both compressed forms), its etag, its slot. */
export const MANIFEST_FILE_BYTES = 768;
/** A ready answer's record and slot; its buffer (head and body) is counted by its length. */
export const READY_ANSWER_BYTES = 256;
/** An analytics client (site, host, user agent, referrer, addresses) and its maps. */
export const ANALYTICS_CLIENT_BYTES = 512;
/** An analytics entry for one target of one client. */
export const ANALYTICS_VISITS_BYTES = 192;

export function routeBytes(path: string, own: number): number {
  return ROUTE_BYTES + stringBytes(path) + own;
}

export function unknownLabelBytes(label: string): number {
  return UNKNOWN_LABEL_BYTES + stringBytes(label);
}

export function cookieBytes(value: string): number {
  return COOKIE_BYTES + stringBytes(value);
}

export function hostValueBytes(hostField: string, label: string): number {
  return HOST_VALUE_BYTES + stringBytes(hostField) + stringBytes(label);
}

export function servedHostBytes(label: string): number {
  return SERVED_HOST_BYTES + stringBytes(label);
}
