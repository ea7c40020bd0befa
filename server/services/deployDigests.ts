// What a deploy's file requests check each file against: the manifest's digests, each with its
// size and first path. A manifest never changes once its deploy is open, and its files arrive in
// several requests side by side (tar batches, or one file each). It is stored as JSON with the
// deploy, so reading it means expanding every entry, 8-12 ms of the embedded database for 1,000
// files, which every batch paid again. Each process keeps the ones it read last, by deploy id,
// read only after the request's deploy was found to be its user's.
import { digestsHeld, manifestDigests } from "../db/repositories/deploys";
import type { Executor } from "../db/client";

export type DeployDigests = ReadonlyMap<string, { path: string; size: number }>;

/** Entries kept across all deploys: a few large deploys' worth, a few megabytes at most. */
const KEPT_ENTRIES = 50_000;

/**
 * A reader of manifests' digests that keeps those it read last, up to `keptEntries` entries in all
 * (the newest always, however large).
 */
export function keptDeployDigests(keptEntries: number): (db: Executor, deployId: string) => Promise<DeployDigests> {
  const kept = new Map<string, DeployDigests>();
  let entries = 0;
  return async (db, deployId) => {
    const known = kept.get(deployId);
    if (known) {
      // Most recently used last, so that eviction takes the oldest.
      kept.delete(deployId);
      kept.set(deployId, known);
      return known;
    }
    const digests = await manifestDigests(db, deployId);
    if (kept.has(deployId)) return kept.get(deployId)!;
    kept.set(deployId, digests);
    entries += digests.size;
    for (const [id, old] of kept) {
      if (entries <= keptEntries || id === deployId) break;
      kept.delete(id);
      entries -= old.size;
    }
    return digests;
  };
}

/** The manifest's distinct digests, in digest order, from memory when this process read them lately. */
export const deployDigests = keptDeployDigests(KEPT_ENTRIES);

/**
 * The digests the deploy still needs: neither stored by its user nor received. The same answer as
 * the repository's missingDigests, from the kept manifest and one lookup of its digests.
 */
export async function stillMissing(db: Executor, deploy: { id: string; user_id: string }, digests: DeployDigests): Promise<string[]> {
  const shas = [...digests.keys()];
  const held = await digestsHeld(db, deploy.id, deploy.user_id, shas);
  return shas.filter((sha256) => !held.has(sha256));
}
