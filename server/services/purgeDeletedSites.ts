// Permanently removes sites once the grace period (DELETION_GRACE_DAYS) since they were marked for
// deletion has passed: their rows, the blobs nothing else uses, and it returns their subdomains to
// the pool. The schedule lives in the data
// (sites.deleted_at), so it survives restarts; row locks with SKIP LOCKED make each site purged
// exactly once even with several workers.
import type { AppContext } from "../context";
import type { Executor } from "../db/client";
import { blobsOfSite } from "../db/repositories/blobs";
import { deleteSiteRow, lockSitesDueForPurge } from "../db/repositories/sites";
import { returnSubdomain } from "../db/repositories/subdomains";
import { deleteUnreferencedBytes, releaseBlobs } from "./releaseBlobs";
import { DELETION_GRACE_DAYS } from "../../common/sites";

/**
 * Deletes the sites' rows and returns their subdomains to the pool, in the caller's transaction.
 * Returns the blobs nothing uses any more (their rows deleted too): the caller deletes the bytes
 * after commit.
 */
export async function purgeSiteRows(tx: Executor, sites: ReadonlyArray<{ id: string; subdomain: string }>): Promise<string[]> {
  const candidates = new Set<string>();
  for (const site of sites) {
    for (const sha of await blobsOfSite(tx, site.id)) candidates.add(sha);
    await deleteSiteRow(tx, site.id);
    await returnSubdomain(tx, site.subdomain);
  }
  return releaseBlobs(tx, candidates);
}

export async function purgeDeletedSites(ctx: Pick<AppContext, "db" | "blobs" | "events" | "log">, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000);
  let purged = 0;
  for (;;) {
    const batch = await ctx.db.transaction(async (tx) => {
      const due = await lockSitesDueForPurge(tx, cutoff, 10);
      const garbage = await purgeSiteRows(tx, due);
      return { due, garbage };
    });
    // The rows are gone for good before the bytes go: a crash here leaves only unreferenced blobs.
    await deleteUnreferencedBytes(ctx, batch.garbage);
    for (const site of batch.due) {
      ctx.events.emit("site", { userId: site.user_id, siteId: site.id, subdomain: site.subdomain });
      ctx.log.info({ siteId: site.id, subdomain: site.subdomain }, "purged a deleted site");
    }
    purged += batch.due.length;
    if (batch.due.length < 10) return purged;
  }
}
