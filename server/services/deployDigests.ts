// What a deploy's file requests check each file against: the manifest's digests, each with its
// size and first path. A manifest never changes once its deploy is open, and its files arrive in
// several requests side by side (tar batches, or one file each), then the publish. It is stored as
// JSON with the deploy, so reading it back means expanding every entry, 8-16 ms of the embedded
// database for 1,000 files, which each of those requests paid again. Each process keeps the ones
// it opened or read last, by deploy id; a request reads them only after it found the deploy to be
// its user's.
import type { Executor } from "../db/client";
import { digestsHeld, manifestDigests, type StoredManifestEntry } from "../db/repositories/deploys";

export type DeployDigests = ReadonlyMap<string, { path: string; size: number }>;

/** Entries kept across all deploys: a few large deploys' worth, a few megabytes at most. */
const KEPT_ENTRIES = 50_000;

/**
 * Manifests' digests by deploy id, the ones used last kept up to `keptEntries` entries in all
 * (the newest always, however large).
 */
export class KeptDeployDigests {
  private readonly kept = new Map<string, DeployDigests>();
  private entries = 0;

  constructor(private readonly keptEntries: number) {}

  /** The deploy's digests, from memory when this process opened or read it lately. */
  async read(db: Executor, deployId: string): Promise<DeployDigests> {
    const known = this.kept.get(deployId);
    if (known) {
      // Most recently used last, so that eviction takes the oldest.
      this.kept.delete(deployId);
      this.kept.set(deployId, known);
      return known;
    }
    const digests = await manifestDigests(db, deployId);
    return this.kept.get(deployId) ?? this.remember(deployId, digests);
  }

  /** Keeps the digests of a deploy just opened, as a read of its stored manifest would give them. */
  remember(deployId: string, digests: DeployDigests): DeployDigests {
    this.entries -= this.kept.get(deployId)?.size ?? 0;
    this.kept.delete(deployId);
    this.kept.set(deployId, digests);
    this.entries += digests.size;
    for (const [id, old] of this.kept) {
      if (this.entries <= this.keptEntries || id === deployId) break;
      this.kept.delete(id);
      this.entries -= old.size;
    }
    return digests;
  }
}

export const deployDigests = new KeptDeployDigests(KEPT_ENTRIES);

/**
 * The digests of a normalised manifest (sorted by path), as the repository's manifestDigests reads
 * them back: in digest order, each with the first path that has it.
 */
export function digestsOfManifest(manifest: readonly StoredManifestEntry[]): DeployDigests {
  const first = new Map<string, { path: string; size: number }>();
  for (const entry of manifest) if (!first.has(entry.sha256)) first.set(entry.sha256, { path: entry.path, size: entry.size });
  return new Map([...first].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The digests the deploy still needs: neither stored by its user nor received, in digest order. */
export async function stillMissing(db: Executor, deploy: { id: string; user_id: string }, digests: DeployDigests): Promise<string[]> {
  const shas = [...digests.keys()];
  const held = await digestsHeld(db, deploy.id, deploy.user_id, shas);
  return shas.filter((sha256) => !held.has(sha256));
}
