// What a crash leaves behind, cleaned by the worker once it is older than the grace period
// (BERTH_ORPHAN_GRACE_SECONDS): blobs no row refers to (stored by an upload that never committed,
// or released by a transaction that committed just before the process died, before the bytes
// went), the temporary files of the blob store and of zip uploads, compressed forms of blobs that
// were released while they were being made, and deployments a dead process left in progress.
// Deploys through the API that were never published go once they expire (DEPLOY_OPEN_HOURS),
// and the files only they had received are then orphans like any other.
//
// An upload's blobs are unreferenced until its commit, so age is what protects them: the store's
// own modification time, which a put of bytes already stored renews (BlobStore.put). The grace
// period must therefore be longer than the slowest upload. A deploy's files wait for its publish
// far longer than that, so its deploy_uploads rows refer to them until it is published or gone.
import type { AppContext } from "../context";
import { blobsNothingRefersTo, deleteBlobRows, lockBlobs } from "../db/repositories/blobs";
import { deleteExpiredDeploys } from "../db/repositories/deploys";
import { failDeploymentsStartedBefore } from "../db/repositories/deployments";
import { deleteStrandedVariants } from "../db/repositories/variants";
import { removeStaleTempFiles } from "../storage/fs";

/** A publish takes seconds; one still in progress after this belongs to a process that died. */
export const ABANDONED_DEPLOYMENT_MS = 10 * 60_000;
/** Blobs judged per query. */
const BATCH = 500;

type SweepContext = Pick<AppContext, "db" | "blobs" | "env" | "events" | "log">;

export interface SweepResult {
  blobs: number;
  temporaries: number;
  variants: number;
  deployments: number;
  /** Deploys through the API past their expiry, published or not. */
  deploys: number;
}

/** How often the worker sweeps: twice per grace period, between once a second and once an hour. */
export function sweepIntervalMs(graceMs: number): number {
  return Math.min(60 * 60_000, Math.max(1000, Math.floor(graceMs / 2)));
}

export async function sweepOrphans(ctx: SweepContext, now = new Date()): Promise<SweepResult> {
  const graceMs = ctx.env.orphanGraceMs;
  const cutoff = new Date(now.getTime() - graceMs);
  // The blob store's temporaries, and zips waiting to be unpacked ($BERTH_DATA_DIR/tmp).
  const temporaries = (await ctx.blobs.removeStaleTemp(graceMs)) + (await removeStaleTempFiles(ctx.env.dataDir, graceMs, now.getTime()));

  const abandoned = await failDeploymentsStartedBefore(
    ctx.db,
    new Date(now.getTime() - ABANDONED_DEPLOYMENT_MS),
    "Deployment failed to complete successfully",
  );
  for (const { deployment, userId, subdomain } of abandoned)
    ctx.events.emit("deployment", { userId, siteId: deployment.site_id, subdomain, deployment });

  // Their received files become orphans here, and go below once old enough.
  const deploys = await deleteExpiredDeploys(ctx.db, now);

  // Their compressed forms become unreferenced here, and go below once old enough.
  const variants = (await deleteStrandedVariants(ctx.db, cutoff)).length;

  let blobs = 0;
  let batch: string[] = [];
  const judge = async () => {
    blobs += await sweepBlobs(ctx, batch, cutoff);
    batch = [];
  };
  for await (const blob of ctx.blobs.list()) {
    if (blob.modifiedAt.getTime() > cutoff.getTime()) continue;
    batch.push(blob.sha256);
    if (batch.length >= BATCH) await judge();
  }
  await judge();

  const result = { blobs, temporaries, variants, deployments: abandoned.length, deploys };
  if (blobs + temporaries + variants + abandoned.length + deploys > 0) ctx.log.info(result, "swept what an interrupted operation left behind");
  return result;
}

/** Deletes the candidates nothing refers to and nobody has written since `cutoff`; returns how many went. */
async function sweepBlobs(ctx: SweepContext, candidates: string[], cutoff: Date): Promise<number> {
  let removed = 0;
  for (const sha of await blobsNothingRefersTo(ctx.db, candidates)) {
    const gone = await ctx.db.transaction(async (tx) => {
      // The lock every commit of rows referring to a blob takes (releaseBlobs.ts): one waiting
      // for it then finds the bytes gone, and stores them again (a picture) or refuses (an upload).
      await lockBlobs(tx, [sha]);
      if ((await blobsNothingRefersTo(tx, [sha])).length === 0) return false;
      // Bytes first: a put since the cutoff keeps them, and then the row stays for its commit.
      if (!(await ctx.blobs.deleteIfOlderThan(sha, cutoff))) return false;
      await deleteBlobRows(tx, [sha]);
      return true;
    });
    if (gone) removed += 1;
  }
  return removed;
}
