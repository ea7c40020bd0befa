// The custom domains this process serves: hostname → site, in memory, so that the host router
// (edge/hosts.ts) decides synchronously, without a query, and /internal/tls/ask answers from memory.
// Loaded once at startup, then kept right by events: a `domain` event (added, activated, failed,
// removed) or a `site` event (deleted, restored, renamed, owner banned or deleted, purged)
// reloads that one site's served domains. A removal takes effect before the reload: the hostname
// is dropped at once, so the next request is no longer the site's.
import type { Db } from "../db/client";
import { listServedDomains, listServedDomainsOfSite, type ServedDomain } from "../db/repositories/domains";
import type { BerthEvents } from "../events";

export interface DomainTarget {
  siteId: string;
  /** The site's subdomain: a custom domain is served exactly as its subdomain host is. */
  subdomain: string;
}

export class DomainRegistry {
  private readonly byHost = new Map<string, DomainTarget>();
  private readonly bySite = new Map<string, Set<string>>();
  /** Per site, the latest reload; an older one that finishes later must not undo a newer change. */
  private readonly generations = new Map<string, number>();
  private lastGeneration = 0;
  private readonly reloading = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    events: BerthEvents,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    events.on("site", ({ siteId }) => this.reload(siteId));
    events.on("domain", ({ siteId, hostname, status }) => {
      if (status !== "active") this.drop(hostname, siteId);
      this.reload(siteId);
    });
    events.on("resync", () => {
      const done: Promise<void> = this.load()
        .catch(this.onError)
        .finally(() => this.reloading.delete(done));
      this.reloading.add(done);
    });
  }

  /** Reads every served domain; called once before the server listens. */
  async load(): Promise<void> {
    const rows = await listServedDomains(this.db);
    this.byHost.clear();
    this.bySite.clear();
    for (const row of rows) this.add(row);
  }

  /** The site a request for `host` (normalized: lower case, no port, no trailing dot) is for. */
  target(host: string): DomainTarget | undefined {
    return this.byHost.get(host);
  }

  /** Resolves when the reloads under way have been applied (tests wait on it). */
  async settled(): Promise<void> {
    while (this.reloading.size > 0) await Promise.all([...this.reloading]);
  }

  private reload(siteId: string): void {
    // Numbers are never reused, so a finished site's entry can go.
    const generation = ++this.lastGeneration;
    this.generations.set(siteId, generation);
    const done: Promise<void> = listServedDomainsOfSite(this.db, siteId)
      .then((rows) => {
        if (this.generations.get(siteId) !== generation) return;
        this.generations.delete(siteId);
        for (const host of this.bySite.get(siteId) ?? []) this.byHost.delete(host);
        this.bySite.delete(siteId);
        for (const row of rows) this.add(row);
      })
      .catch((error: unknown) => this.onError(error))
      .finally(() => this.reloading.delete(done));
    this.reloading.add(done);
  }

  private add(row: ServedDomain): void {
    this.byHost.set(row.hostname, { siteId: row.siteId, subdomain: row.subdomain });
    let hosts = this.bySite.get(row.siteId);
    if (!hosts) this.bySite.set(row.siteId, (hosts = new Set()));
    hosts.add(row.hostname);
  }

  /** Only this site's claim: another account's failed claim on the same name leaves the owner's alone. */
  private drop(hostname: string, siteId: string): void {
    const target = this.byHost.get(hostname);
    if (target?.siteId !== siteId) return;
    this.byHost.delete(hostname);
    this.bySite.get(target.siteId)?.delete(hostname);
  }
}
