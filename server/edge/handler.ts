// The edge: answers every request for a site host. Plain code, no framework, because this is
// the hot path. Host → deployment (EdgeResolver) → route → file from memory or the blob store.
// After warm-up a request for a small file is answered synchronously: a few map lookups and one
// write; no query, no stat, no promise.
//
// Two entry points share everything: `serve` for the edge's own HTTP/1.1 layer (http1/), which
// carries almost all traffic, and `serveNode` for the requests that layer hands to node:http
// (Range, methods other than GET and HEAD, unusual syntax).
import { addressKey } from "../http/address";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { BlobStore } from "../storage/blobStore";
import { formatBytes } from "../../common/format";
import type { BlobCache } from "./blobCache";
import { headersFor } from "../siteConfig/headers";
import type { Manifest } from "./manifest";
import { SITE_PASSWORD_LIMIT } from "../../common/limits";
import type { Db } from "../db/client";
import { expiredPage, imagePage, listingPage, notFoundPage, fileNotFoundPage, passwordPage, pdfViewerPage } from "./pages";
import { parseRequestPath } from "./paths";
import { nodeReply, type EdgeReply, type EdgeRequest } from "./reply";
import { MAX_MISSES_PER_HOST, type EdgeResolver, type ServedHost } from "./resolver";
import { stringBytes } from "./memory/budget";
import { flat } from "./flatString";
import { ANSWER_BYTES, REDIRECT_BYTES, routeBytes } from "./memory/sizes";
import { cacheControlFor, prepareFile, rangeApplies, respondFromMemory, respondWithFile, respondWithRange, type PreparedFile } from "./respond";
import { routeRequest } from "./route";
import { NEVER_CACHE } from "../../common/siteCaching";
import {
  PASSWORD_PATH,
  RESERVED_PREFIX,
  checkPass,
  clientAddress,
  issuePass,
  passCookieHeader,
  passesFromCookies,
  readForm,
  safeNext,
  type PassKeys,
} from "./protection";
import { tryFormPassword } from "./passwordAttempt";
import { SHARE_PATH_PREFIX } from "../../common/shareLinks";
import { createShareGate, isSharePath, SITE_PRIVATE } from "./share";
import type { ShareKeys } from "../sites/shareTokens";
import type { AnalyticsRecorder } from "./analytics/collector";
import { requestAborted } from "../requestAborted";

export interface EdgeHandler {
  /** Answers a GET or HEAD without Range; the promise, if any, settles when the answer is sent. */
  serve(req: EdgeRequest, reply: EdgeReply, label: string): void | Promise<void>;
  /** Answers any request that reached node:http. */
  serveNode(req: IncomingMessage, res: ServerResponse, label: string): void;
}

type Prepared =
  | { kind: "file"; file: PreparedFile }
  | { kind: "page"; status: number; body: Buffer; headers: OutgoingHttpHeaders }
  | { kind: "redirect"; status: number; location: string; headers: OutgoingHttpHeaders }
  /** A share link's path: its answer depends on the link, so it is never remembered. */
  | { kind: "share" };

const SHARE: Prepared = { kind: "share" };

function page(status: number, html: string, cache: string): Prepared & { kind: "page" } {
  const body = Buffer.from(html);
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "content-length": body.length,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
  };
  return { kind: "page", status, body, headers };
}

function redirect(status: number, location: string, cache: string): Prepared & { kind: "redirect" } {
  const headers = { location, "content-length": 0, "cache-control": cache, "x-content-type-options": "nosniff" };
  return { kind: "redirect", status, location, headers };
}

const SITE_NOT_FOUND = page(404, notFoundPage(), NEVER_CACHE);
const SITE_EXPIRED = page(410, expiredPage(), NEVER_CACHE);
const FILE_NOT_FOUND = page(404, fileNotFoundPage(), "no-cache");
const INTERNAL_ERROR = page(500, "Internal error", NEVER_CACHE);
const NOT_ALLOWED = { allow: "GET, HEAD", "content-length": 0, "x-content-type-options": "nosniff" };

/** Every answer of a protected host carries these, over whatever the site's _headers say. */
const PROTECTED: Array<[string, string]> = [
  ["cache-control", NEVER_CACHE],
  ["referrer-policy", "no-referrer"],
];
const PROTECTED_FILE_NOT_FOUND = protectedPage(FILE_NOT_FOUND);

function protectedPage<P extends Prepared & { kind: "page" | "redirect" }>(p: P): P {
  return withHeaders(p, Object.fromEntries(PROTECTED));
}

/**
 * A copy of a page or redirect with `extra` over its headers. Object.assign, not `{ ...p, x }`:
 * on Node 20 optimised code gives each object made by a spread followed by more properties a
 * hidden class of its own, and answers are read on every request (see routeFor).
 */
function withHeaders<P extends Prepared & { kind: "page" | "redirect" }>(p: P, extra: OutgoingHttpHeaders): P {
  return Object.assign({}, p, { headers: Object.assign({}, p.headers, extra) });
}

const PASSWORD_TEXT = {
  wrong: "That password is not right. Try again.",
  tooMany: "Too many wrong passwords. Wait a few minutes, then try again.",
  tooLarge: "That request was too large.",
} as const;

/** The password page: never cached, never framed, never sends a Referer onwards. */
function passwordAnswer(status: number, next: string, error?: string): Prepared & { kind: "page" } {
  return withHeaders(protectedPage(page(status, passwordPage(next, error), NEVER_CACHE)), {
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  });
}

function sendPage(req: EdgeRequest, reply: EdgeReply, p: Prepared & { kind: "page" }): void {
  reply.send(p.status, p.headers, req.method === "HEAD" ? undefined : p.body);
}

function rootPage(manifest: Manifest): string {
  const root = manifest.root;
  if (root.kind === "pdf") return pdfViewerPage(root.path);
  if (root.kind === "image") return imagePage(root.path);
  return listingPage(
    [...manifest.files.values()].filter((f) => !f.path.startsWith("_")),
    formatBytes,
  );
}

/** What prepare() works out for a path: the answer, what of it is the route's own, whether it missed. */
interface PathAnswer {
  answer: Prepared;
  /** Bytes of the answer that only this path's route holds (shared answers count in the memo). */
  own: number;
  miss: boolean;
}

/** An answer shared by every path of a host that leads to it (one file, the root page). */
interface SharedAnswer {
  readonly bytes: number;
  readonly answer: Prepared;
}

/**
 * The host's answer for `key`, made once: every path that names the same file (`/a`, `//a`,
 * `/a.html` → `/a`, and every made-up path that falls back to 200.html) shares its header
 * objects, so routes stay small and the ready answers of http1/responseHead.ts are reused.
 */
function sharedAnswer<P extends Prepared>(host: ServedHost, key: string, make: () => P, bytes: (answer: P) => number): Prepared {
  const known = host.answers.get(key) as SharedAnswer | undefined;
  if (known !== undefined) return known.answer;
  const answer = make();
  const entry: SharedAnswer = { bytes: stringBytes(key) + bytes(answer), answer };
  host.answers.set(key, entry);
  return answer;
}

const MISSED = (answer: Prepared): PathAnswer => ({ answer, own: 0, miss: true });

/** Works out what a path on this host answers; the result is the same for every request. */
function prepare(host: ServedHost, rawPath: string): PathAnswer {
  if (rawPath.startsWith(SHARE_PATH_PREFIX)) return MISSED(SHARE);
  const requested = parseRequestPath(rawPath);
  if (!requested.ok) return MISSED(FILE_NOT_FOUND);
  const { manifest, versionHost } = host;
  // Protected hosts get their own header objects, built here once per host and file.
  if (host.protected && rawPath.startsWith(RESERVED_PREFIX)) return MISSED(PROTECTED_FILE_NOT_FOUND);
  // _share/ belongs to share links on every host, however the path spells it.
  if (requested.path === "_share" || requested.path.startsWith("_share/")) return MISSED(host.protected ? PROTECTED_FILE_NOT_FOUND : FILE_NOT_FOUND);
  const { route, named } = routeRequest(manifest, manifest.config.redirects, requested.path, requested.directory);
  const miss = !named;
  switch (route.kind) {
    case "file": {
      const headerPath = `/${requested.path}${requested.directory && requested.path ? "/" : ""}`;
      const extra = manifest.config.headers.length > 0 ? headersFor(manifest.config.headers, headerPath) : [];
      const key = `${route.status}\n${route.file.path}${extra.map(([name, value]) => `\n${name}: ${value}`).join("")}`;
      const file = () => ({
        kind: "file" as const,
        file: prepareFile(route.file, manifest, versionHost, route.status, host.protected ? [...extra, ...PROTECTED] : extra),
      });
      return { answer: sharedAnswer(host, key, file, () => ANSWER_BYTES), own: 0, miss };
    }
    case "root": {
      const root = () => {
        const p = page(200, rootPage(manifest), cacheControlFor("", versionHost));
        return host.protected ? protectedPage(p) : p;
      };
      return { answer: sharedAnswer(host, "root", root, (p) => ANSWER_BYTES + p.body.length), own: 0, miss };
    }
    case "redirect": {
      const r = redirect(route.status, route.location, cacheControlFor("", versionHost));
      return { answer: host.protected ? protectedPage(r) : r, own: REDIRECT_BYTES + stringBytes(route.location), miss };
    }
    case "not-found":
      return MISSED(host.protected ? PROTECTED_FILE_NOT_FOUND : FILE_NOT_FOUND);
  }
}

/**
 * What a path answers, with the path itself as the route table keeps it: one string per path,
 * whose hash is worked out once, so analytics can group requests by it for the price of a lookup
 * by identity (a fresh string from each request costs a hash of its characters every time).
 *
 * A plain literal of four fields, not `{ ...prepare(), path }`: on Node 20, optimised code gives
 * every object made by a spread followed by another property a hidden class of its own. With a
 * thousand paths each read of `kind` or `file` then missed V8's inline caches and went to the
 * runtime (alternating A/B on one core: many +16 % req/s, 404 +12 %).
 */
interface Route {
  readonly path: string;
  readonly answer: Prepared;
  /** Its estimated size in memory (the host's route map counts it). */
  readonly bytes: number;
  /** A path the site does not have: few of these are remembered per host. */
  readonly miss: boolean;
}

function routeFor(host: ServedHost, rawPath: string): Route {
  let route = host.routes.get(rawPath) as Route | undefined;
  if (route === undefined) {
    const prepared = prepare(host, rawPath);
    const path = flat(rawPath);
    route = { path, answer: prepared.answer, bytes: routeBytes(path, prepared.own), miss: prepared.miss };
    // Tokens are as many as anyone cares to make up: they must not crowd out real paths.
    if (route.answer.kind === "share") return route;
    // Made-up paths are answered, but past a few per host not remembered. The host's map bounds
    // the rest by bytes, and the routes of all hosts together (resolver.ts).
    if (route.miss && host.misses >= MAX_MISSES_PER_HOST) return route;
    host.routes.set(path, route);
    if (route.miss && host.routes.get(path) === route) host.misses++;
  }
  return route;
}

export interface EdgeDeps {
  resolver: EdgeResolver;
  blobs: BlobStore;
  cache: BlobCache;
  log: FastifyBaseLogger;
  /** Rate limits of wrong site passwords, shared by every process through the database. */
  db: Db;
  /** Signs and checks the pass cookies of protected sites (protection.ts passKeys). */
  passKeys: PassKeys;
  /** Checks share-link tokens (sites/shareTokens.ts) and signs and checks share cookies (shareCookies.ts). */
  shareKeys: ShareKeys;
  /** Behind a reverse proxy: the client address is X-Forwarded-For's last entry. */
  trustProxy: boolean;
  /** Counts answered requests (analytics/collector.ts); absent when analytics are off. */
  analytics?: AnalyticsRecorder | undefined;
  /** A share link's last view was just spent here (share.ts): the owner's notice. */
  onShareLinkUsedUp?: ((used: { siteId: string; linkId: string }) => void) | undefined;
}

/**
 * node:http's requests (Ranges, POSTs, odd syntax) are counted when their answer is finished;
 * Range answers write to the response directly, so the reply cannot count them.
 */
function countWhenFinished(analytics: AnalyticsRecorder, req: IncomingMessage, res: ServerResponse, reply: EdgeReply): void {
  // node:http answers a connection's requests one at a time, so the socket's count of bytes
  // between now and 'finish' is this answer's, head included.
  const before = req.socket.bytesWritten;
  res.once("finish", () => {
    if (reply.served === undefined) return;
    analytics.record(
      reply.served,
      req.headers.host ?? "",
      reply.path ?? req.url ?? "/",
      req.headers,
      req.socket.remoteAddress,
      res.statusCode,
      { "content-type": res.getHeader("content-type") },
      req.socket.bytesWritten - before,
    );
  });
}

export function createEdgeHandler(deps: EdgeDeps): EdgeHandler {
  const share = createShareGate(deps);
  const fail = (req: EdgeRequest, reply: EdgeReply, error: unknown) => {
    // A visitor who goes away mid-download is not an error of ours.
    if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") return;
    deps.log.error({ err: error, url: req.url }, "edge failed to serve");
    if (!reply.headersSent) sendPage(req, reply, INTERNAL_ERROR);
    else reply.destroy();
  };

  // A form whose sender went away, or stalled past the body timeout, is not an error of ours either.
  const failForm = (req: IncomingMessage, reply: EdgeReply, error: unknown) => {
    if (!requestAborted(req)) return fail(req, reply, error);
    deps.log.info({ url: req.url }, "form not received in full: the client went away or stopped sending");
    reply.destroy();
  };

  const answer = (req: EdgeRequest, reply: EdgeReply, host: ServedHost, url: string): void | Promise<void> => {
    const queryAt = url.indexOf("?");
    const route = routeFor(host, queryAt === -1 ? url : url.slice(0, queryAt));
    const prepared = route.answer;
    reply.path = route.path;
    switch (prepared.kind) {
      case "file":
        if (respondFromMemory(req, reply, deps.cache, prepared.file)) return;
        return respondWithFile(req, reply, deps, prepared.file).catch((error: unknown) => fail(req, reply, error));
      case "page":
        return sendPage(req, reply, prepared);
      case "share":
        return share.open(req, reply, host, route.path).catch((error: unknown) => fail(req, reply, error));
      case "redirect": {
        // The visitor's query string goes along, unless the rule's target has its own.
        if (queryAt === -1 || prepared.location.includes("?")) return reply.send(prepared.status, prepared.headers);
        return reply.send(prepared.status, {
          ...prepared.headers,
          location: prepared.location + url.slice(queryAt),
        });
      }
    }
  };

  type Then = (host: ServedHost) => void | Promise<void>;

  /**
   * The site's schedule, checked on every request because the cached host does not change when
   * the time passes: expired answers 410, not yet live answers 404, before any file or Range.
   */
  const open = (req: EdgeRequest, reply: EdgeReply, host: ServedHost, then: Then): void | Promise<void> => {
    if (host.scheduled && closed(req, reply, host)) return;
    // A share link decides for itself; a share cookie opens the site, password or private.
    if (host.protected && !isSharePath(req.url) && !((!host.private && hasPass(req, host)) || share.admitted(req, host))) {
      if (host.private) return sendPage(req, reply, SITE_PRIVATE);
      const url = req.url ?? "/";
      const path = url.split("?", 1)[0]!;
      return sendPage(req, reply, passwordAnswer(401, safeNext(path === PASSWORD_PATH ? "/" : url)));
    }
    return then(host);
  };

  /** Answers 410 or 404 when the schedule says the site is not served now. */
  const closed = (req: EdgeRequest, reply: EdgeReply, host: ServedHost): boolean => {
    const now = Date.now();
    if (now >= host.expiresAt) sendPage(req, reply, SITE_EXPIRED);
    else if (now < host.publishAt) sendPage(req, reply, SITE_NOT_FOUND);
    else return false;
    return true;
  };

  /** A valid pass cookie for this host; verified values are remembered until they expire. */
  const hasPass = (req: EdgeRequest, host: ServedHost): boolean => {
    const now = Date.now();
    for (const value of passesFromCookies(req.headers.cookie)) {
      const known = host.passes.get(value);
      if (known !== undefined) {
        if (known > now) return true;
        host.passes.delete(value);
        continue;
      }
      const expires = checkPass(deps.passKeys, value, host.siteId, host.passwordVersion, now);
      if (expires === 0) continue;
      host.passes.set(value, expires);
      return true;
    }
    return false;
  };

  /** POST /.berth/password on a protected host: the form's password, rate-limited per site and address. */
  const enter = async (req: IncomingMessage, reply: EdgeReply, host: ServedHost): Promise<void> => {
    const form = await readForm(req);
    if (!form) return sendPage(req, reply, passwordAnswer(413, "/", PASSWORD_TEXT.tooLarge));
    const next = safeNext(form.get("next"));
    const key = `berth:site-password:${host.siteId}:${addressKey(clientAddress(req, deps.trustProxy))}`;
    const attempt = await tryFormPassword(deps.db, { key, rule: SITE_PASSWORD_LIMIT }, form.get("password") ?? "", host.passwordHash);
    if (attempt.limited) return sendPage(req, reply, passwordAnswer(429, next, PASSWORD_TEXT.tooMany));
    if (!attempt.result) return sendPage(req, reply, passwordAnswer(401, next, PASSWORD_TEXT.wrong));
    const cookie = passCookieHeader(deps.passKeys, issuePass(deps.passKeys, host.siteId, host.passwordVersion));
    reply.send(303, {
      location: next,
      "set-cookie": cookie,
      "content-length": 0,
      ...Object.fromEntries(PROTECTED),
    });
  };

  /**
   * The host, from memory once warm (else one lookup), then `then`: through the schedule and
   * password gates (`open`) unless `gated` is false. 404 for no site, 500 on failure. No closure
   * is made on the warm path.
   */
  const withHost = (req: EdgeRequest, reply: EdgeReply, label: string, then: Then, gated = true): void | Promise<void> => {
    try {
      const warm = deps.resolver.peek(label);
      if (warm) {
        reply.served = warm;
        return gated ? open(req, reply, warm, then) : then(warm);
      }
      if (warm === null) return sendPage(req, reply, SITE_NOT_FOUND);
    } catch (error) {
      return fail(req, reply, error);
    }
    return deps.resolver.resolve(label).then(
      (host) => {
        if (!host) return sendPage(req, reply, SITE_NOT_FOUND);
        reply.served = host;
        return gated ? open(req, reply, host, then) : then(host);
      },
      (error: unknown) => fail(req, reply, error),
    );
  };

  return {
    serve: (req, reply, label) => withHost(req, reply, label, (host) => answer(req, reply, host, req.url ?? "/")),

    serveNode(req, res, label) {
      const reply = nodeReply(res);
      if (deps.analytics) countWhenFinished(deps.analytics, req, res, reply);
      if (req.method === "POST" && (req.url ?? "/").split("?", 1)[0] === PASSWORD_PATH) {
        // Only a protected host takes the form; elsewhere this is any other POST.
        const post = (host: ServedHost) => {
          if (!host.protected) return reply.send(405, NOT_ALLOWED);
          if (host.scheduled && closed(req, reply, host)) return;
          // A private site opens with a share link only, never with the site password.
          if (host.private) return sendPage(req, reply, SITE_PRIVATE);
          return enter(req, reply, host).catch((error: unknown) => failForm(req, reply, error));
        };
        return void withHost(req, reply, label, post, false);
      }
      if (req.method === "POST" && isSharePath(req.url)) {
        const path = req.url!.split("?", 1)[0]!;
        const post = (host: ServedHost) => {
          if (host.scheduled && closed(req, reply, host)) return;
          return share.enter(req, reply, host, path).catch((error: unknown) => failForm(req, reply, error));
        };
        return void withHost(req, reply, label, post, false);
      }
      if (req.method !== "GET" && req.method !== "HEAD") return reply.send(405, NOT_ALLOWED);
      void withHost(req, reply, label, (host) => {
        const url = req.url ?? "/";
        if (req.headers.range === undefined) return answer(req, reply, host, url);
        const queryAt = url.indexOf("?");
        const route = routeFor(host, queryAt === -1 ? url : url.slice(0, queryAt));
        const prepared = route.answer;
        if (prepared.kind !== "file" || !rangeApplies(req, prepared.file)) return answer(req, reply, host, url);
        reply.path = route.path;
        return respondWithRange(req, res, deps, prepared.file).catch((error: unknown) => fail(req, reply, error));
      });
    },
  };
}
