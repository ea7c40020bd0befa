// Blobs are shared by content (two sites, two users, a file and an avatar may hold the same
// bytes), so rows that stop referring to a blob only make it a candidate for deletion.
//
// Why the bytes are judged again, under a lock, once the release has committed: an upload holds
// its blobs without any row until it commits. It stores them first (a put of bytes the store
// already has changes nothing), so its commit may land between the release's commit and the
// deletion of the bytes, or after that deletion. Hence two checks under one lock per blob
// (lockBlobs): the deletion deletes only while no row refers to the blob, and the commit
// (commitFiles.ts) writes its rows only while the bytes are still stored, refusing the upload
// when a deletion got there first. Whichever takes the lock second sees what the first did.
import type { AppContext } from "../context";
import type { Executor } from "../db/client";
import { blobsNothingRefersTo, deleteBlobRows, lockBlobs, unreferencedBlobs } from "../db/repositories/blobs";
import { deleteVariantsOf } from "../db/repositories/variants";

/**
 * Of the candidates, deletes the rows of the blobs nothing refers to any more, with their
 * compressed forms unless something else uses those bytes. Returns them all, for
 * deleteUnreferencedBytes() after commit: a crash leaves unreferenced bytes, never a row without
 * its bytes. No lock here: a commit racing this may keep referring to a blob whose `blobs` row
 * goes, and then its bytes stay until the orphan sweeper finds nothing referring to them.
 */
export async function releaseBlobs(tx: Executor, candidates: Iterable<string>): Promise<string[]> {
  const orphans = await unreferencedBlobs(tx, [...new Set(candidates)]);
  const variants = await unreferencedBlobs(tx, await deleteVariantsOf(tx, orphans));
  const garbage = [...orphans, ...variants];
  await deleteBlobRows(tx, garbage);
  return garbage;
}

/**
 * Deletes the bytes of those blobs that no row refers to, each in a short transaction holding its
 * lock: after a release commits, and for an upload that gives up on the blobs it stored. Bytes a
 * row refers to (again, or still) stay.
 */
export async function deleteUnreferencedBytes(ctx: Pick<AppContext, "db" | "blobs">, shas: Iterable<string>): Promise<void> {
  for (const sha of new Set(shas)) {
    await ctx.db.transaction(async (tx) => {
      await lockBlobs(tx, [sha]);
      if ((await blobsNothingRefersTo(tx, [sha])).length > 0) await ctx.blobs.delete(sha);
    });
  }
}
