// The edge's analytics: every request a site host answers is counted in memory as it is sent.
// Requests are grouped by client (site, host, user agent, referrer, address) and then by target,
// status and type, so a thousand identical requests cost one entry and no object that outlives the
// request, and a keep-alive client costs a few string comparisons and one map lookup per request
// (bench:edge's `many` case: 1,000 paths round robin at ~75k req/s). Once a second the batch is
// classified, grouped per site and written in one statement, one row per site (see the schema).
// Serving never waits for it.
//
// Visitors: a SHA-256 of the day's salt, the client address and the user agent, cut to 128 bits.
// The salt lives in the database for one UTC day (shared by every process), so the same person
// is one visitor all day and cannot be recognised after it. No address is ever written.
import { createHash, randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { insertAnalyticsBatches, saltForDay, type AnalyticsBatch, type AnalyticsEntry, type HostKind } from "../../db/repositories/analytics";
import type { ServedSite } from "../reply";
import { hostName, isBot, isPageView, pathOf, referrerHost, visitorAddress } from "./classify";
import type { GeoIp } from "./geoip";
import { EdgeMemory, stringBytes, type MemoryPart } from "../memory/budget";
import { ANALYTICS_CLIENT_BYTES, ANALYTICS_VISITS_BYTES } from "../memory/sizes";
import { flat } from "../flatString";

/**
 * One write a second, holding everything that came in since the last. No earlier write when many
 * entries wait: with the embedded database a write runs on the serving thread (about 14 ms for
 * 1,000 entries), and bench:edge's many case (1,000 paths round robin) reached 1,000 entries four
 * times a second, which cost it 8 % of its throughput. The edge's budget bounds the memory instead:
 * the `analytics` part holds what waits and the batch being written; past it (a flood of distinct
 * clients or URLs, or a database that is behind) new entries are dropped and counted.
 */
export const FLUSH_INTERVAL_MS = 1000;
/** Distinct rows per batch; past this, new paths, referrers and visitors fold into one row. */
const MAX_GROUPS = 20_000;
const OTHER_PATH = "(other)";
/** Entries per statement, so one write never holds the (embedded) database for long. */
const ENTRIES_PER_STATEMENT = 5000;
/**
 * Entries grouped between two turns of the event loop. Grouping 1,000 entries took an edge worker
 * 1-6 ms in one go, once a second, while the requests on its connections waited (bench:edge's many
 * case); in slices of this size each wait stays well under a millisecond.
 */
export const ENTRIES_PER_TURN = 200;
const DAY_MS = 86_400_000;

/** The request fields analytics reads; the edge's RequestHead and node:http's headers both fit. */
export interface RecordedHeaders {
  readonly referer?: string | undefined;
  readonly "user-agent"?: string | undefined;
  readonly "x-forwarded-for"?: string | undefined;
}

/**
 * The answer's header fields analytics reads. The edge reuses one object per path and encoding,
 * so an entry remembers the object and compares it by identity; reading a field on every request
 * cost the many case of bench:edge about 3 % of its throughput.
 */
export interface RecordedResponse {
  readonly [field: string]: unknown;
}

/** Requests from one client to one site: the fields that stay the same across keep-alive requests. */
interface Client {
  site: ServedSite;
  host: string;
  userAgent: string | undefined;
  referer: string | undefined;
  forwardedFor: string | undefined;
  address: string | undefined;
  /** By target, for the status and type first seen on it. */
  byUrl: Map<string, Visits>;
  /** The same target answered with another status or type (a file deleted meanwhile, say). */
  others: Map<string, Visits> | undefined;
}

/** Requests alike in every field analytics reads, counted together. */
interface Visits {
  client: Client;
  url: string;
  status: number;
  contentType: string | undefined;
  /** The header object the entry was made for: another one is compared by its type. */
  response: RecordedResponse;
  requests: number;
  bytes: number;
}

export interface AnalyticsRecorder {
  /**
   * `url` is best the route table's own path string (EdgeReply.path): grouping by it is then a
   * lookup by identity. A URL with its query works too; the query is cut when the batch is written.
   */
  record(
    site: ServedSite,
    host: string,
    url: string,
    headers: RecordedHeaders,
    address: string | undefined,
    status: number,
    response: RecordedResponse,
    bytes: number,
  ): void;
}

export interface CollectorOptions {
  db: Db;
  log: FastifyBaseLogger;
  sitesDomain: string;
  trustProxy: boolean;
  geoIp?: GeoIp | undefined;
  now?: () => number;
  /** The edge's budget; its `analytics` part bounds what waits to be written. */
  memory?: EdgeMemory;
}

export class AnalyticsCollector implements AnalyticsRecorder {
  private clients = new Map<string, Client>();
  /** Distinct entries waiting (Visits over every client). */
  private entries = 0;
  /** Their estimated bytes, counted in `part` until the write that takes them is done. */
  private bytes = 0;
  private readonly part: MemoryPart;
  /** The client the previous request came from, while it is still pending. */
  private lastClient: Client | undefined;
  private flushing: Promise<void> | undefined;
  /** A flush asked for while one was writing: it writes what came meanwhile, once that one is done. */
  private flushAfter: Promise<void> | undefined;
  private dropped = 0;
  private salt: { day: number; value: string } | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly sitesSuffix: string;
  private readonly now: () => number;

  constructor(private readonly options: CollectorOptions) {
    this.sitesSuffix = `.${options.sitesDomain.toLowerCase()}`;
    this.now = options.now ?? Date.now;
    this.part = (options.memory ?? new EdgeMemory(256 * 1024 * 1024)).part("analytics");
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(
    site: ServedSite,
    host: string,
    url: string,
    headers: RecordedHeaders,
    address: string | undefined,
    status: number,
    response: RecordedResponse,
    bytes: number,
  ): void {
    const userAgent = headers["user-agent"];
    const referer = headers.referer;
    const forwardedFor = headers["x-forwarded-for"];
    let client = this.lastClient;
    if (
      client === undefined ||
      client.site !== site ||
      client.userAgent !== userAgent ||
      client.address !== address ||
      client.referer !== referer ||
      client.host !== host ||
      client.forwardedFor !== forwardedFor
    ) {
      const key = `${site.siteId}\n${host}\n${userAgent}\n${referer}\n${address}\n${forwardedFor}`;
      client = this.clients.get(key);
      if (client === undefined) {
        // The key, and the fields again as copies of their own (see flat).
        const size = ANALYTICS_CLIENT_BYTES + 2 * stringBytes(key);
        if (!this.take(size)) return;
        client = {
          site,
          host: flat(host),
          userAgent: copy(userAgent),
          referer: copy(referer),
          forwardedFor: copy(forwardedFor),
          address,
          byUrl: new Map(),
          others: undefined,
        };
        this.clients.set(key, client);
      }
      this.lastClient = client;
    }
    let visits = client.byUrl.get(url);
    if (visits === undefined || visits.status !== status || (visits.response !== response && visits.contentType !== typeOf(response))) {
      visits = this.visitsOf(client, url, status, response, visits === undefined);
      if (visits === undefined) return;
    }
    visits.requests++;
    visits.bytes += bytes;
  }

  /** A new entry of the client's, or its entry for a status or type other than the first. */
  private visitsOf(client: Client, url: string, status: number, response: RecordedResponse, first: boolean): Visits | undefined {
    const contentType = typeOf(response);
    const key = `${status}\n${contentType}\n${url}`;
    let visits = first ? undefined : client.others?.get(key);
    if (visits !== undefined) return visits;
    // The URL is best the route's own string, shared, but it may outlive the route: counted.
    if (!this.take(ANALYTICS_VISITS_BYTES + stringBytes(url) + (first ? 0 : stringBytes(key)))) return undefined;
    visits = { client, url, status, contentType, response, requests: 0, bytes: 0 };
    if (first) client.byUrl.set(url, visits);
    else (client.others ??= new Map()).set(key, visits);
    this.entries++;
    return visits;
  }

  /** Counts `size` more bytes waiting, or the visit is dropped: the budget's part is full. */
  private take(size: number): boolean {
    if (this.part.used + size > this.part.cap) {
      this.dropped++;
      return false;
    }
    this.bytes += size;
    this.part.charge(size);
    return true;
  }

  /**
   * Writes what is waiting; one write at a time. Resolves once every visit recorded before the
   * call is written: asked while a write runs (the timer's), it waits for it, then writes what came
   * since. Failures are logged, and the batch is lost.
   */
  flush(): Promise<void> {
    if (this.flushing) {
      return (this.flushAfter ??= this.flushing.then(() => {
        this.flushAfter = undefined;
        return this.flush();
      }));
    }
    if (this.entries === 0) {
      // Nothing to write, but perhaps clients whose every visit was dropped.
      this.part.release(this.bytes);
      this.bytes = 0;
      this.clients = new Map();
      this.lastClient = undefined;
      this.reportDropped();
      return Promise.resolve();
    }
    const clients = this.clients;
    const entries = this.entries;
    const bytes = this.bytes;
    this.clients = new Map();
    this.entries = 0;
    this.bytes = 0;
    this.lastClient = undefined;
    this.flushing = this.write(clients.values())
      .catch((error: unknown) => this.options.log.error({ err: error, entries }, "could not write analytics"))
      .finally(() => {
        // Until now the batch was in memory: it counted against what new visits may take.
        this.part.release(bytes);
        this.flushing = undefined;
        this.reportDropped();
      });
    return this.flushing;
  }

  private reportDropped(): void {
    if (this.dropped === 0) return;
    this.options.log.warn(
      { dropped: this.dropped },
      "analytics dropped visits: their memory was full (the database behind, or a flood of distinct visitors or URLs)",
    );
    this.dropped = 0;
  }

  /** Clean shutdown: stops the timer and writes everything still in memory. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(clients: Iterable<Client>): Promise<void> {
    const now = this.now();
    const salt = await this.saltFor(now);
    const minute = new Date(Math.floor(now / 60_000) * 60_000).toISOString();
    /** Per site, its entries by every field they are grouped on. */
    const sites = new Map<string, Map<string, AnalyticsEntry>>();
    let groups = 0;
    const bots = new Map<string | undefined, boolean>();
    const { trustProxy, geoIp } = this.options;
    let visited = 0;

    for (const client of clients) {
      const { userAgent } = client;
      let bot = bots.get(userAgent);
      if (bot === undefined) bots.set(userAgent, (bot = isBot(userAgent)));
      const kind = this.hostKind(client);
      const address = visitorAddress(client.address, client.forwardedFor, trustProxy);
      let visitor: string | undefined;
      let country: string | null | undefined;
      let entries = sites.get(client.site.siteId);
      if (entries === undefined) sites.set(client.site.siteId, (entries = new Map<string, AnalyticsEntry>()));

      for (const visits of allVisits(client)) {
        if (++visited % ENTRIES_PER_TURN === 0) await nextTurn();
        let path = pathOf(visits.url);
        const pageView = isPageView(visits.status, visits.contentType, path);
        let referrer = pageView && !bot ? referrerHost(client.referer, client.host) : null;
        let counted: string | null = null;
        let where: string | null = null;
        if (!bot && visits.status < 400) {
          counted = visitor ??= createHash("sha256").update(`${salt}\n${address}\n${userAgent}`).digest("hex").slice(0, 32);
          if (geoIp) where = country === undefined ? (country = geoIp.country(address)) : country;
        }
        let key = `${kind}\n${path}\n${visits.status}\n${pageView}\n${bot}\n${referrer}\n${where}\n${counted}`;
        let entry = entries.get(key);
        if (entry === undefined && groups >= MAX_GROUPS) {
          // A flood of distinct URLs or clients: keep the counts, not the detail.
          path = OTHER_PATH;
          referrer = null;
          counted = null;
          key = `${kind}\n${path}\n${visits.status}\n${pageView}\n${bot}\nnull\n${where}\nnull`;
          entry = entries.get(key);
        }
        if (entry === undefined) {
          entry = { host_kind: kind, path, status: visits.status, page_view: pageView, bot, requests: 0, bytes: 0 };
          // Absent reads as null, and the batch is a third smaller for the database to take in
          // (a bot's entry has none of the three).
          if (referrer !== null) entry.referrer_host = referrer;
          if (where !== null) entry.country = where;
          if (counted !== null) entry.visitor = counted;
          entries.set(key, entry);
          groups++;
        }
        entry.requests += visits.requests;
        entry.bytes += visits.bytes;
      }
    }
    let batches: AnalyticsBatch[] = [];
    let size = 0;
    for (const [site_id, entries] of sites) {
      const events = [...entries.values()];
      for (let i = 0; i < events.length; i += ENTRIES_PER_STATEMENT) {
        const part = events.slice(i, i + ENTRIES_PER_STATEMENT);
        if (size > 0 && size + part.length > ENTRIES_PER_STATEMENT) {
          await insertAnalyticsBatches(this.options.db, batches);
          batches = [];
          size = 0;
        }
        batches.push({ site_id, at: minute, events: part });
        size += part.length;
      }
    }
    await insertAnalyticsBatches(this.options.db, batches);
  }

  private hostKind(client: Client): HostKind {
    if (client.site.versionHost) return "deployment";
    return hostName(client.host).endsWith(this.sitesSuffix) ? "subdomain" : "custom";
  }

  private async saltFor(now: number): Promise<string> {
    const day = Math.floor(now / DAY_MS) * DAY_MS;
    if (this.salt?.day !== day) {
      this.salt = { day, value: await saltForDay(this.options.db, new Date(day), randomBytes(32).toString("hex")) };
    }
    return this.salt.value;
  }
}

/** Lets the requests that arrived meanwhile be answered first. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function copy(text: string | undefined): string | undefined {
  return text === undefined ? undefined : flat(text);
}

function typeOf(response: RecordedResponse): string | undefined {
  const type = response["content-type"];
  return typeof type === "string" ? type : undefined;
}

function* allVisits(client: Client): Iterable<Visits> {
  yield* client.byUrl.values();
  if (client.others) yield* client.others.values();
}
