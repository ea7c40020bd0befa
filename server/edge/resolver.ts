// Host → site → deployment → manifest, cached in memory. Sites are cached by label until a
// service says the site changed; manifests are cached by deployment id and never go stale,
// because a published deployment never changes.
import type { Db } from "../db/client";
import { getManifest, getSuccessfulDeploymentByVersion } from "../db/repositories/deployments";
import { getSiteBySubdomain } from "../db/repositories/sites";
import type { BerthEvents } from "../events";
import { buildManifest, type Manifest } from "./manifest";

/** `abcde` → the live deployment; `abcde--v3` → version 3 of the same site. */
export function parseLabel(label: string): { subdomain: string; version: number | undefined } | undefined {
  const match = /^([a-z0-9-]+?)(?:--v([1-9][0-9]{0,8}))?$/.exec(label);
  if (!match) return undefined;
  return { subdomain: match[1]!, version: match[2] ? Number(match[2]) : undefined };
}

interface SiteEntry {
  siteId: string;
  deploymentId: string | null;
}

export class EdgeResolver {
  private readonly sites = new Map<string, SiteEntry | null>();
  private readonly manifests = new Map<string, Manifest>();

  constructor(
    private readonly db: Db,
    events: BerthEvents,
    private readonly maxManifests = 1000,
  ) {
    events.on("site", ({ subdomain }) => this.forget(subdomain));
  }

  /** Drops every cached host of the site (its live host and its version hosts). */
  forget(subdomain: string): void {
    for (const label of this.sites.keys()) {
      if (label === subdomain || label.startsWith(`${subdomain}--v`)) this.sites.delete(label);
    }
  }

  /** The manifest to serve for a host label, or undefined for no site, a deleted one, or nothing published. */
  async resolve(label: string): Promise<Manifest | undefined> {
    let entry = this.sites.get(label);
    if (entry === undefined) {
      entry = await this.lookup(label);
      this.sites.set(label, entry);
    }
    if (!entry?.deploymentId) return undefined;
    return this.manifest(entry.deploymentId);
  }

  private async lookup(label: string): Promise<SiteEntry | null> {
    const parsed = parseLabel(label);
    if (!parsed) return null;
    const site = await getSiteBySubdomain(this.db, parsed.subdomain);
    if (!site || site.is_deleted) return null;
    if (parsed.version === undefined) return { siteId: site.id, deploymentId: site.live_deployment_id };
    const deployment = await getSuccessfulDeploymentByVersion(this.db, site.id, parsed.version);
    return { siteId: site.id, deploymentId: deployment?.id ?? null };
  }

  private async manifest(deploymentId: string): Promise<Manifest> {
    const cached = this.manifests.get(deploymentId);
    if (cached) {
      // Refresh its place: the map's order is the eviction order.
      this.manifests.delete(deploymentId);
      this.manifests.set(deploymentId, cached);
      return cached;
    }
    const manifest = buildManifest(deploymentId, await getManifest(this.db, deploymentId));
    this.manifests.set(deploymentId, manifest);
    if (this.manifests.size > this.maxManifests) this.manifests.delete(this.manifests.keys().next().value!);
    return manifest;
  }
}
