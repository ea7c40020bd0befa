// The edge's analytics: every request a site host answers is remembered in memory as it is sent
// (one small object, nothing worked out), and once a second, or as soon as 1,000 are waiting,
// the batch is classified, grouped and written in one statement. Serving never waits for it.
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
export const FLUSH_AT_RECORDS = 1000;
/** Records kept while the database is unreachable; past this they are dropped and counted. */
const MAX_PENDING = 200_000;
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

interface Visit {
  site: ServedSite;
  host: string;
  url: string;
  headers: RecordedHeaders;
  address: string | undefined;
  status: number;
  contentType: string | undefined;
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
  private pending: Visit[] = [];
  private flushing: Promise<void> | undefined;
  private soon = false;
  private dropped = 0;
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
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    this.pending.push({ site, host, url, headers, address, status, contentType: typeof contentType === "string" ? contentType : undefined, bytes });
    if (this.pending.length >= FLUSH_AT_RECORDS && !this.soon) {
      this.soon = true;
      setImmediate(() => {
        this.soon = false;
        void this.flush();
      });
    }
  }

  /** Writes what is waiting; one write at a time. Failures are logged, and the batch is lost. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.length === 0) return Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.write(batch)
      .catch((error: unknown) => this.options.log.error({ err: error, visits: batch.length }, "could not write analytics"))
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

  private async write(batch: Visit[]): Promise<void> {
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
      const userAgent = visit.headers["user-agent"];
      let bot = bots.get(userAgent);
      if (bot === undefined) bots.set(userAgent, (bot = isBot(userAgent)));
      let kind = kinds.get(visit.host);
      if (kind === undefined) kinds.set(visit.host, (kind = this.hostKind(visit)));
      let path = pathOf(visit.url);
      const pageView = isPageView(visit.status, visit.contentType, path);
      let referrer = pageView && !bot ? referrerHost(visit.headers.referer, visit.host) : null;
      let visitor: string | null = null;
      let country: string | null = null;
      if (!bot && visit.status < 400) {
        const address = visitorAddress(visit.address, visit.headers["x-forwarded-for"], trustProxy);
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
      row.requests++;
      row.bytes += visit.bytes;
    }
    const all = [...rows.values()];
    for (let i = 0; i < all.length; i += ROWS_PER_STATEMENT) {
      await insertAnalyticsEvents(this.options.db, all.slice(i, i + ROWS_PER_STATEMENT));
    }
  }

  private hostKind(visit: Visit): HostKind {
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
