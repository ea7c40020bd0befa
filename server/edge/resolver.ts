// Host → site → deployment → manifest, cached in memory. Sites are cached by label until a
// service says the site changed; manifests are cached by deployment id and never go stale,
// because a published deployment never changes. Every map here is bounded by bytes, in its part
// of the edge's budget (memory/budget.ts), and so are each served host's routes and cookie memos.
import type { Db } from "../db/client";
import { getDeploymentById, getManifest, getSuccessfulDeploymentByVersion } from "../db/repositories/deployments";
import { variantsOf } from "../db/repositories/variants";
import { getServableSiteBySubdomain } from "../db/repositories/sites";
import { listShareLinkAccess } from "../db/repositories/shareLinks";
import type { BerthEvents } from "../events";
import { buildManifest, type Manifest } from "./manifest";
import { stringBytes, type EdgeMemory, type MemoryPart } from "./memory/budget";
import { ByteMap } from "./memory/byteMap";
import { cookieBytes, servedHostBytes, SHARE_LINK_BYTES, SITE_BYTES, unknownLabelBytes } from "./memory/sizes";

/** `abcde` → the live deployment; `abcde--v3` → version 3 of the same site. */
export function parseLabel(label: string): { subdomain: string; version: number | undefined } | undefined {
  const match = /^([a-z0-9-]+?)(?:--v([1-9][0-9]{0,8}))?$/.exec(label);
  if (!match) return undefined;
  return { subdomain: match[1]!, version: match[2] ? Number(match[2]) : undefined };
}

const NO_LINKS: ReadonlyMap<string, ShareLinkAccess> = new Map();

/** What a host's route table holds: the handler's routes, which know their size and whether they missed. */
export interface RouteEntry {
  /** Estimated once, when the route was made. */
  readonly bytes: number;
  /** A path the site does not have (its 404, its 200.html fallback, Berth's 404). */
  readonly miss: boolean;
}

/** What a host's answer memo holds (answers shared by every path that names the same file). */
export interface SizedEntry {
  readonly bytes: number;
}

/**
 * Misses (paths the site does not have) remembered per host: the few that are asked for again
 * and again (favicon.ico, robots.txt) are kept; a flood of made-up paths is answered, not kept.
 */
export const MAX_MISSES_PER_HOST = 64;
/** One host's routes, answers and cookie memos may use at most this share of their parts. */
const HOST_SHARE = 1 / 4;

/** A host that serves a deployment, and the answers its paths have resolved to so far. */
export interface ServedHost {
  manifest: Manifest;
  versionHost: boolean;
  /** Path (without query) → route; the handler adds, the map bounds itself (bytes, oldest first). */
  routes: ByteMap<string, RouteEntry>;
  /** How many of the routes are misses (MAX_MISSES_PER_HOST). */
  misses: number;
  /** Answers shared by the paths that lead to them (handler.ts), by what they are. */
  answers: ByteMap<string, SizedEntry>;
  /** Whether the site has an expiry or a go-live time, so the handler compares only then. */
  scheduled: boolean;
  /** Epoch ms from which every path answers 410; Infinity when the site never expires. */
  expiresAt: number;
  /** Epoch ms before which every path answers 404; -Infinity when the site is live now. */
  publishAt: number;
  siteId: string;
  /**
   * A site password is set or the site is private: every path asks for a pass or share cookie
   * first, and every answer carries the protected headers.
   */
  protected: boolean;
  /** "Private: only share links": without a share cookie every path answers 403. */
  private: boolean;
  /** The site's share links, for checking share cookies without a query; empty when not protected. */
  shareLinks: ReadonlyMap<string, ShareLinkAccess>;
  /** Share cookie values already verified on this host → their expiry (ms). */
  shares: ByteMap<string, number>;
  /** The scrypt hash, checked when the password form is posted; null when not protected. */
  passwordHash: string | null;
  /** Signed into pass cookies; a changed password refuses the old ones. */
  passwordVersion: number;
  /** Pass cookie values already verified on this host → their expiry (ms). */
  passes: ByteMap<string, number>;
}

/** What a share cookie needs of its link: a revoked or expired link ends every browser's access. */
export interface ShareLinkAccess {
  /** Epoch ms; Infinity when the link never expires. */
  expiresAt: number;
  revoked: boolean;
}

interface SiteEntry {
  siteId: string;
  deploymentId: string | null;
  /** {sub}--v{n}: a host whose content never changes. */
  versionHost: boolean;
  expiresAt: number;
  publishAt: number;
  passwordHash: string | null;
  passwordVersion: number;
  private: boolean;
  shareLinks: ReadonlyMap<string, ShareLinkAccess>;
}

function siteBytes(label: string, entry: SiteEntry): number {
  return SITE_BYTES + stringBytes(label) + entry.shareLinks.size * SHARE_LINK_BYTES;
}

export class EdgeResolver {
  /** Labels that name a site with something to serve. */
  private readonly sites: ByteMap<string, SiteEntry>;
  /** Labels that serve nothing: no such site, nothing published, no such version. */
  private readonly unknown: ByteMap<string, true>;
  private readonly manifests: ByteMap<string, Manifest>;
  /** What each host label serves right now, with the routes its paths resolved to. */
  private readonly hosts: ByteMap<string, ServedHost>;
  private readonly routesPart: MemoryPart;
  private readonly cookiesPart: MemoryPart;
  /**
   * Counts the changes heard. A lookup that heard one while it awaited the database may have read
   * the state from before it, so it answers its request but caches nothing (that stale entry
   * would be served until the next change).
   */
  private changes = 0;
  /**
   * Reads under way, by label and by deployment, with the count of changes when each began. A
   * host's first requests come together (a client opens its connections at once, a busy site's
   * visitors arrive on the heels of a publish): each would run the same queries, a 1,000-file
   * manifest's two taking 10-40 ms of the database's one thread. A request that finds a read
   * begun since the last change waits for it instead, and reads what it would have read.
   */
  private readonly lookups = new Map<string, InFlight<SiteEntry | null>>();
  private readonly loads = new Map<string, InFlight<Manifest | undefined>>();

  constructor(
    private readonly db: Db,
    events: BerthEvents,
    memory: EdgeMemory,
  ) {
    this.sites = new ByteMap(memory.part("sites"), siteBytes);
    this.unknown = new ByteMap(memory.part("unknownLabels"), unknownLabelBytes);
    // A host keeps its manifest alive: a manifest let go takes its hosts with it, or it would
    // stay in memory uncounted.
    this.manifests = new ByteMap(memory.part("manifests"), (_, m) => m.bytes, { onRemove: (_, m) => this.dropHostsOf(m) });
    this.hosts = new ByteMap(memory.part("servedHosts"), servedHostBytes, { onRemove: (_, host) => closeHost(host) });
    this.routesPart = memory.part("routes");
    this.cookiesPart = memory.part("cookies");
    // Routes and cookie memos live in many hosts: past their part's cap the oldest hosts go whole.
    this.routesPart.onOver = this.cookiesPart.onOver = () => this.trimHosts();
    events.on("site", ({ subdomain }) => this.forget(subdomain));
    // New compressed forms: reload manifests so they are served. Rare (after publishes).
    events.on("variants", () => {
      this.changes += 1;
      // Hosts first: each manifest let go looks for its hosts.
      this.hosts.clear();
      this.manifests.clear();
    });
    events.on("resync", () => {
      this.changes += 1;
      this.sites.clear();
      this.unknown.clear();
      this.hosts.clear();
      this.manifests.clear();
    });
  }

  /** Drops every cached host of the site (its live host and its version hosts). */
  forget(subdomain: string): void {
    this.changes += 1;
    for (const map of [this.sites, this.unknown, this.hosts]) {
      for (const label of map.keys()) {
        if (label === subdomain || label.startsWith(`${subdomain}--v`)) map.delete(label);
      }
    }
  }

  /**
   * The manifest to serve for a host label, or undefined for no site, a deleted one, one whose
   * owner is banned, or nothing published. After the first request for a host this is two map
   * lookups, with no query.
   */
  async resolve(label: string): Promise<ServedHost | undefined> {
    for (let attempt = 1; ; attempt++) {
      const ready = this.peek(label);
      if (ready !== undefined) return ready ?? undefined;
      const changes = this.changes;
      const known = this.sites.get(label);
      const entry = known ?? (await this.shared(this.lookups, label, changes, () => this.lookup(label)));
      const deploymentId = entry?.deploymentId;
      const manifest = deploymentId
        ? (this.manifests.get(deploymentId) ?? (await this.shared(this.loads, deploymentId, changes, () => this.load(deploymentId, changes))))
        : undefined;
      if (changes !== this.changes) {
        // Read across a change, so perhaps from before it: look again. Should changes keep
        // coming, answer from what was read (this request overlapped them) and keep nothing.
        if (attempt < 3) continue;
        return entry && manifest ? this.buildHost(entry, manifest, false) : undefined;
      }
      // A deployment that went without a change being heard (another node's prune in flight).
      if (entry?.deploymentId && !manifest) return undefined;
      if (!entry?.deploymentId) {
        // Made-up labels are remembered too, or each would cost a query every time; the map
        // of them is small and forgets the oldest first.
        this.unknown.set(label, true);
        return undefined;
      }
      if (known === undefined) this.sites.set(label, entry);
      return manifest ? this.hostFor(label, entry, manifest) : undefined;
    }
  }

  /**
   * The warm path, without a promise: the host when everything is cached, null when the host is
   * known to serve nothing, undefined when a lookup is needed.
   */
  peek(label: string): ServedHost | null | undefined {
    const host = this.hosts.get(label);
    if (host) return host;
    const entry = this.sites.get(label);
    if (entry === undefined) return this.unknown.has(label) ? null : undefined;
    const manifest = this.manifests.get(entry.deploymentId!);
    return manifest ? this.hostFor(label, entry, manifest) : undefined;
  }

  private hostFor(label: string, entry: SiteEntry, manifest: Manifest): ServedHost {
    let host = this.hosts.get(label);
    if (!host || host.manifest !== manifest) {
      // Kept only with a manifest that is counted (in the map): a host keeps its manifest alive.
      const kept = this.manifests.get(manifest.deploymentId) === manifest;
      host = this.buildHost(entry, manifest, kept);
      if (kept) this.hosts.set(label, host);
      // Not kept after all (closed, or larger than the map may hold): its maps must not count.
      if (this.hosts.get(label) !== host) closeHost(host);
    }
    return host;
  }

  /**
   * A served host. `kept` false: one that answers a request or two and is never cached, whose
   * maps keep nothing (what it remembered would be counted and never let go).
   */
  private buildHost(entry: SiteEntry, manifest: Manifest, kept: boolean): ServedHost {
    const { versionHost, expiresAt, publishAt, siteId, passwordHash, passwordVersion, shareLinks } = entry;
    const scheduled = expiresAt !== Infinity || publishAt !== -Infinity;
    const routes = this.routesPart;
    const cookies = this.cookiesPart;
    const host: ServedHost = {
      manifest,
      versionHost,
      routes: new ByteMap(routes, (_, route) => route.bytes, {
        cap: routes.cap * HOST_SHARE,
        onRemove: (_, route) => {
          if (route.miss) host.misses--;
        },
      }),
      misses: 0,
      answers: new ByteMap(routes, (_, answer) => answer.bytes, { cap: routes.cap * HOST_SHARE }),
      scheduled,
      expiresAt,
      publishAt,
      siteId,
      protected: passwordHash !== null || entry.private,
      passwordHash,
      passwordVersion,
      passes: new ByteMap(cookies, cookieBytes, { cap: cookies.cap * HOST_SHARE }),
      private: entry.private,
      shareLinks,
      shares: new ByteMap(cookies, cookieBytes, { cap: cookies.cap * HOST_SHARE }),
    };
    if (!kept) closeHost(host);
    return host;
  }

  /** Past the routes' or the cookies' cap: the hosts held longest go, with all they hold. */
  private trimHosts(): void {
    while (this.routesPart.over || this.cookiesPart.over) {
      if (!this.hosts.dropOldest()) return;
    }
  }

  /** A manifest let go: the hosts serving it go too (they come back from the site entry). */
  private dropHostsOf(manifest: Manifest): void {
    for (const [label, host] of this.hosts) if (host.manifest === manifest) this.hosts.delete(label);
  }

  /** `read`'s result, or that of the same read begun since the last change heard. */
  private shared<T>(reads: Map<string, InFlight<T>>, key: string, changes: number, read: () => Promise<T>): Promise<T> {
    const running = reads.get(key);
    if (running !== undefined && running.changes === changes) return running.result;
    const result = read().finally(() => {
      if (reads.get(key)?.result === result) reads.delete(key);
    });
    reads.set(key, { changes, result });
    return result;
  }

  private async lookup(label: string): Promise<SiteEntry | null> {
    const parsed = parseLabel(label);
    if (!parsed) return null;
    // Deleted sites and sites of banned owners are left out by the query itself.
    const site = await getServableSiteBySubdomain(this.db, parsed.subdomain);
    if (!site) return null;
    // The times are compared per request (handler.ts), so a cached entry turns at the right moment.
    // The password rides along: the edge checks it (and pass cookies) from the cached host.
    const schedule = {
      expiresAt: site.expires_at?.getTime() ?? Infinity,
      publishAt: site.publish_at?.getTime() ?? -Infinity,
      passwordHash: site.password_hash,
      passwordVersion: site.password_version,
      private: site.visibility === "private",
      // Share cookies are read on protected hosts only, so only they need the links.
      shareLinks: site.visibility === "private" || site.password_hash !== null ? await this.shareLinksOf(site.id) : NO_LINKS,
    };
    if (parsed.version === undefined) return { siteId: site.id, deploymentId: site.live_deployment_id, versionHost: false, ...schedule };
    const deployment = await getSuccessfulDeploymentByVersion(this.db, site.id, parsed.version);
    return { siteId: site.id, deploymentId: deployment?.id ?? null, versionHost: true, ...schedule };
  }

  private async shareLinksOf(siteId: string): Promise<ReadonlyMap<string, ShareLinkAccess>> {
    const links = await listShareLinkAccess(this.db, siteId);
    return new Map(links.map((l) => [l.id, { expiresAt: l.expires_at?.getTime() ?? Infinity, revoked: l.revoked_at !== null }]));
  }

  /**
   * Loads a deployment's manifest, or undefined when the deployment is gone (pruned since it was
   * looked up); caches it unless a change was heard since `changes` was read.
   */
  private async load(deploymentId: string, changes: number): Promise<Manifest | undefined> {
    const [deployment, rows] = await Promise.all([getDeploymentById(this.db, deploymentId), getManifest(this.db, deploymentId)]);
    if (!deployment) return undefined;
    const variants = await variantsOf(this.db, [...new Set(rows.map((r) => r.sha256))]);
    const manifest = buildManifest(deployment, rows, variants);
    // A deployment never changes, but its compressed forms may have arrived while this read.
    if (changes !== this.changes) return manifest;
    this.manifests.set(deploymentId, manifest);
    return manifest;
  }
}

interface InFlight<T> {
  /** The resolver's count of changes when the read began. */
  changes: number;
  result: Promise<T>;
}

/** A host no longer cached: what it holds is let go, and what it is given later is not kept. */
function closeHost(host: ServedHost): void {
  host.routes.close();
  host.answers.close();
  host.passes.close();
  host.shares.close();
}
