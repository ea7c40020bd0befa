// Blobs are shared by content (two sites, two users, a file and an avatar may hold the same
// bytes), so rows that stop referring to a blob only make it a candidate for deletion.
import type { Executor } from "../db/client";
import { deleteBlobRows, unreferencedBlobs } from "../db/repositories/blobs";
import { deleteVariantsOf } from "../db/repositories/variants";

/**
 * Of the candidates, deletes the rows of the blobs nothing refers to any more, with their
 * compressed forms unless something else uses those bytes. Returns them all: the caller deletes
 * the bytes after commit, so a crash leaves unreferenced bytes, never a row without its bytes.
 */
export async function releaseBlobs(tx: Executor, candidates: Iterable<string>): Promise<string[]> {
  const orphans = await unreferencedBlobs(tx, [...new Set(candidates)]);
  const variants = await unreferencedBlobs(tx, await deleteVariantsOf(tx, orphans));
  const garbage = [...orphans, ...variants];
  await deleteBlobRows(tx, garbage);
  return garbage;
}
