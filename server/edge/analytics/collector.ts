// The edge's analytics: every request a site host answers is counted in memory as it is sent,
// under a key of the fields that matter (site, host, target, status, type, user agent, referrer,
// address), so a thousand identical requests cost one map entry and no object that outlives the
// request. Once a second, or as soon as 1,000 distinct entries wait, the batch is classified,
// grouped into rows and written in one statement. Serving never waits for it.
//
// Visitors: a SHA-256 of the day's salt, the client address and the user agent, cut to 128 bits.
// The salt lives in the database for one UTC day (shared by every process), so the same person
// is one visitor all day and cannot be recognised after it. No address is ever written.
import { createHash, randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { insertAnalyticsEvents, saltForDay, type AnalyticsEventRow, type HostKind } from "../../db/repositories/analytics";
import type { ServedSite } from "../reply";
import { hostName, isBot, isPageView, pathOf, referrerHost, visitorAddress } from "./classify";
import type { GeoIp } from "./geoip";

export const FLUSH_INTERVAL_MS = 1000;
/** Distinct entries that trigger a write before the second is up (identical requests share one). */
export const FLUSH_AT_ENTRIES = 1000;
/**
 * ...but no more often than this. With the embedded database each write runs on the serving
 * thread: bench:edge's many case (1,000 paths round robin, ~80k req/s) reached 1,000 entries 80
 * times a second and served a quarter of its requests; at most 4 writes a second keeps it close.
 */
export const MIN_WRITE_GAP_MS = 250;
/** Distinct entries kept while the database is behind; past this, new ones are dropped and counted. */
const MAX_PENDING = 50_000;
/** Distinct rows per batch; past this, new paths, referrers and visitors fold into one row. */
const MAX_GROUPS = 20_000;
const OTHER_PATH = "(other)";
const ROWS_PER_STATEMENT = 1000;
const DAY_MS = 86_400_000;

/** The request fields analytics reads; the edge's RequestHead and node:http's headers both fit. */
export interface RecordedHeaders {
  readonly referer?: string | undefined;
  readonly "user-agent"?: string | undefined;
  readonly "x-forwarded-for"?: string | undefined;
}

/** Requests alike in every field analytics reads, counted together. */
interface Visits {
  site: ServedSite;
  host: string;
  url: string;
  userAgent: string | undefined;
  referer: string | undefined;
  forwardedFor: string | undefined;
  address: string | undefined;
  status: number;
  contentType: string | undefined;
  requests: number;
  bytes: number;
}

export interface AnalyticsRecorder {
  record(site: ServedSite, host: string, url: string, headers: RecordedHeaders, address: string | undefined, status: number, contentType: unknown, bytes: number): void;
}

export interface CollectorOptions {
  db: Db;
  log: FastifyBaseLogger;
  sitesDomain: string;
  trustProxy: boolean;
  geoIp?: GeoIp | undefined;
  now?: () => number;
}

export class AnalyticsCollector implements AnalyticsRecorder {
  private pending = new Map<string, Visits>();
  /** The entry the previous request counted in, while it is still pending. */
  private last: Visits | undefined;
  private flushing: Promise<void> | undefined;
  private soon = false;
  private dropped = 0;
  /** When the latest write began (MIN_WRITE_GAP_MS). */
  private lastWrite = 0;
  private salt: { day: number; value: string } | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly sitesSuffix: string;
  private readonly now: () => number;

  constructor(private readonly options: CollectorOptions) {
    this.sitesSuffix = `.${options.sitesDomain.toLowerCase()}`;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(site: ServedSite, host: string, url: string, headers: RecordedHeaders, address: string | undefined, status: number, contentType: unknown, bytes: number): void {
    const userAgent = headers["user-agent"];
    const referer = headers.referer;
    const forwardedFor = headers["x-forwarded-for"];
    const type = typeof contentType === "string" ? contentType : undefined;
    // Keep-alive clients repeat themselves: the same entry as last time skips building a key
    // (about 600 ns of a 10 µs request) for a few string comparisons.
    const last = this.last;
    if (
      last !== undefined &&
      last.url === url &&
      last.site === site &&
      last.status === status &&
      last.userAgent === userAgent &&
      last.address === address &&
      last.contentType === type &&
      last.referer === referer &&
      last.host === host &&
      last.forwardedFor === forwardedFor
    ) {
      last.requests++;
      last.bytes += bytes;
      return;
    }
    const key = `${site.siteId}\n${host}\n${url}\n${status}\n${type}\n${userAgent}\n${referer}\n${address}\n${forwardedFor}`;
    let visits = this.pending.get(key);
    if (visits === undefined) {
      if (this.pending.size >= MAX_PENDING) {
        this.dropped++;
        return;
      }
      visits = { site, host, url, userAgent, referer, forwardedFor, address, status, contentType: type, requests: 0, bytes: 0 };
      this.pending.set(key, visits);
      if (this.pending.size >= FLUSH_AT_ENTRIES && !this.soon) {
        this.soon = true;
        const wait = Math.max(0, this.lastWrite + MIN_WRITE_GAP_MS - this.now());
        setTimeout(() => {
          this.soon = false;
          void this.flush();
        }, wait).unref();
      }
    }
    visits.requests++;
    visits.bytes += bytes;
    this.last = visits;
  }

  /** Writes what is waiting; one write at a time. Failures are logged, and the batch is lost. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0) return Promise.resolve();
    const batch = this.pending;
    this.pending = new Map();
    this.last = undefined;
    this.lastWrite = this.now();
    this.flushing = this.write(batch.values())
      .catch((error: unknown) => this.options.log.error({ err: error, entries: batch.size }, "could not write analytics"))
      .finally(() => {
        this.flushing = undefined;
        if (this.dropped > 0) {
          this.options.log.warn({ dropped: this.dropped }, "analytics dropped visits while the database was behind");
          this.dropped = 0;
        }
      });
    return this.flushing;
  }

  /** Clean shutdown: stops the timer and writes everything still in memory. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.flush();
  }

  private async write(batch: Iterable<Visits>): Promise<void> {
    const now = this.now();
    const salt = await this.saltFor(now);
    const minute = new Date(Math.floor(now / 60_000) * 60_000).toISOString();
    const rows = new Map<string, AnalyticsEventRow>();
    const bots = new Map<string | undefined, boolean>();
    const visitors = new Map<string, string>();
    const countries = new Map<string, string | null>();
    const kinds = new Map<string, HostKind>();
    const { trustProxy, geoIp } = this.options;

    for (const visit of batch) {
      const { userAgent } = visit;
      let bot = bots.get(userAgent);
      if (bot === undefined) bots.set(userAgent, (bot = isBot(userAgent)));
      let kind = kinds.get(visit.host);
      if (kind === undefined) kinds.set(visit.host, (kind = this.hostKind(visit)));
      let path = pathOf(visit.url);
      const pageView = isPageView(visit.status, visit.contentType, path);
      let referrer = pageView && !bot ? referrerHost(visit.referer, visit.host) : null;
      let visitor: string | null = null;
      let country: string | null = null;
      if (!bot && visit.status < 400) {
        const address = visitorAddress(visit.address, visit.forwardedFor, trustProxy);
        const key = `${address}\n${userAgent}`;
        visitor = visitors.get(key) ?? null;
        if (visitor === null) {
          visitor = createHash("sha256").update(`${salt}\n${key}`).digest("hex").slice(0, 32);
          visitors.set(key, visitor);
        }
        if (geoIp) {
          country = countries.get(address) ?? null;
          if (!countries.has(address)) countries.set(address, (country = geoIp.country(address)));
        }
      }
      let key = `${visit.site.siteId}\n${kind}\n${path}\n${visit.status}\n${pageView}\n${bot}\n${referrer}\n${country}\n${visitor}`;
      let row = rows.get(key);
      if (row === undefined && rows.size >= MAX_GROUPS) {
        // A flood of distinct URLs or clients: keep the counts, not the detail.
        path = OTHER_PATH;
        referrer = null;
        visitor = null;
        key = `${visit.site.siteId}\n${kind}\n${path}\n${visit.status}\n${pageView}\n${bot}\nnull\n${country}\nnull`;
        row = rows.get(key);
      }
      if (row === undefined) {
        row = { site_id: visit.site.siteId, at: minute, host_kind: kind, path, status: visit.status, page_view: pageView, bot, referrer_host: referrer, country, visitor, requests: 0, bytes: 0 };
        rows.set(key, row);
      }
      row.requests += visit.requests;
      row.bytes += visit.bytes;
    }
    const all = [...rows.values()];
    for (let i = 0; i < all.length; i += ROWS_PER_STATEMENT) {
      await insertAnalyticsEvents(this.options.db, all.slice(i, i + ROWS_PER_STATEMENT));
    }
  }

  private hostKind(visit: Visits): HostKind {
    if (visit.site.versionHost) return "deployment";
    return hostName(visit.host).endsWith(this.sitesSuffix) ? "subdomain" : "custom";
  }

  private async saltFor(now: number): Promise<string> {
    const day = Math.floor(now / DAY_MS) * DAY_MS;
    if (this.salt?.day !== day) {
      this.salt = { day, value: await saltForDay(this.options.db, new Date(day), randomBytes(32).toString("hex")) };
    }
    return this.salt.value;
  }
}
