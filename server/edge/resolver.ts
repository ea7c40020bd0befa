// Host → site → deployment → manifest, cached in memory. Sites are cached by label until a
// service says the site changed; manifests are cached by deployment id and never go stale,
// because a published deployment never changes.
import type { Db } from "../db/client";
import { getDeploymentById, getManifest, getSuccessfulDeploymentByVersion } from "../db/repositories/deployments";
import { variantsOf } from "../db/repositories/variants";
import { getServableSiteBySubdomain } from "../db/repositories/sites";
import { listShareLinkAccess } from "../db/repositories/shareLinks";
import type { BerthEvents } from "../events";
import { buildManifest, type Manifest } from "./manifest";

/** `abcde` → the live deployment; `abcde--v3` → version 3 of the same site. */
export function parseLabel(label: string): { subdomain: string; version: number | undefined } | undefined {
  const match = /^([a-z0-9-]+?)(?:--v([1-9][0-9]{0,8}))?$/.exec(label);
  if (!match) return undefined;
  return { subdomain: match[1]!, version: match[2] ? Number(match[2]) : undefined };
}

const NO_LINKS: ReadonlyMap<string, ShareLinkAccess> = new Map();

/** Host labels remembered, found or not; the oldest are forgotten past this. */
const MAX_SITE_ENTRIES = 100_000;

/** A host that serves a deployment, and the answers its paths have resolved to so far. */
export interface ServedHost {
  manifest: Manifest;
  versionHost: boolean;
  /** Path (without query) → prepared answer; bounded by the caller. */
  routes: Map<string, unknown>;
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
  /** Share cookie values already verified on this host → their expiry (ms); bounded by the caller. */
  shares: Map<string, number>;
  /** The scrypt hash, checked when the password form is posted; null when not protected. */
  passwordHash: string | null;
  /** Signed into pass cookies; a changed password refuses the old ones. */
  passwordVersion: number;
  /** Pass cookie values already verified on this host → their expiry (ms); bounded by the caller. */
  passes: Map<string, number>;
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

export class EdgeResolver {
  private readonly sites = new Map<string, SiteEntry | null>();
  private readonly manifests = new Map<string, Manifest>();
  /** What each host label serves right now, with the routes its paths resolved to. */
  private readonly hosts = new Map<string, ServedHost>();
  /**
   * Counts the changes heard. A lookup that heard one while it awaited the database may have read
   * the state from before it, so it answers its request but caches nothing (that stale entry
   * would be served until the next change).
   */
  private changes = 0;

  constructor(
    private readonly db: Db,
    events: BerthEvents,
    private readonly maxManifests = 1000,
  ) {
    events.on("site", ({ subdomain }) => this.forget(subdomain));
    // New compressed forms: reload manifests so they are served. Rare (after publishes).
    events.on("variants", () => {
      this.changes += 1;
      this.manifests.clear();
      this.hosts.clear();
    });
    events.on("resync", () => {
      this.changes += 1;
      this.sites.clear();
      this.manifests.clear();
      this.hosts.clear();
    });
  }

  /** Drops every cached host of the site (its live host and its version hosts). */
  forget(subdomain: string): void {
    this.changes += 1;
    for (const label of this.sites.keys()) {
      if (label === subdomain || label.startsWith(`${subdomain}--v`)) this.sites.delete(label);
    }
    for (const label of this.hosts.keys()) {
      if (label === subdomain || label.startsWith(`${subdomain}--v`)) this.hosts.delete(label);
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
      const entry = known !== undefined ? known : await this.lookup(label);
      const manifest = entry?.deploymentId ? (this.manifests.get(entry.deploymentId) ?? (await this.load(entry.deploymentId, changes))) : undefined;
      if (changes !== this.changes) {
        // Read across a change, so perhaps from before it: look again. Should changes keep
        // coming, answer from what was read (this request overlapped them) and keep nothing.
        if (attempt < 3) continue;
        return entry && manifest ? this.buildHost(entry, manifest) : undefined;
      }
      // A deployment that went without a change being heard (another node's prune in flight).
      if (entry?.deploymentId && !manifest) return undefined;
      if (known === undefined) {
        this.sites.set(label, entry);
        // Requests for random host names must not grow this map without end.
        if (this.sites.size > MAX_SITE_ENTRIES) this.sites.delete(this.sites.keys().next().value!);
      }
      return entry && manifest ? this.hostFor(label, entry, manifest) : undefined;
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
    if (entry === null) return null;
    if (entry === undefined) return undefined;
    if (!entry.deploymentId) return null;
    const manifest = this.manifests.get(entry.deploymentId);
    return manifest ? this.hostFor(label, entry, manifest) : undefined;
  }

  private hostFor(label: string, entry: SiteEntry, manifest: Manifest): ServedHost {
    let host = this.hosts.get(label);
    if (!host || host.manifest !== manifest) {
      host = this.buildHost(entry, manifest);
      this.hosts.set(label, host);
    }
    return host;
  }

  private buildHost(entry: SiteEntry, manifest: Manifest): ServedHost {
    const { versionHost, expiresAt, publishAt, siteId, passwordHash, passwordVersion, shareLinks } = entry;
    const scheduled = expiresAt !== Infinity || publishAt !== -Infinity;
    return {
      manifest,
      versionHost,
      routes: new Map(),
      scheduled,
      expiresAt,
      publishAt,
      siteId,
      protected: passwordHash !== null || entry.private,
      passwordHash,
      passwordVersion,
      passes: new Map(),
      private: entry.private,
      shareLinks,
      shares: new Map(),
    };
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
    // Oldest first out: the map keeps insertion order.
    if (this.manifests.size > this.maxManifests) this.manifests.delete(this.manifests.keys().next().value!);
    return manifest;
  }
}
