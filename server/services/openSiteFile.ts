// A working-tree file's bytes, for the Files tab's download: 404 for a folder or a file the site
// does not have, 410 when the blob store no longer holds its bytes.
import type { Readable } from "node:stream";
import type { AppContext } from "../context";
import { getSiteFile, type SiteFile } from "../db/repositories/siteFiles";
import { AppError } from "../errors";
import { BlobNotFoundError } from "../storage/blobStore";
import { UUID } from "./siteAccess";

/** The caller has checked that the site is the user's (requireSite). */
export async function openSiteFile(
  ctx: Pick<AppContext, "db" | "blobs">,
  siteId: string,
  fileId: string,
): Promise<{ file: SiteFile; stream: Readable }> {
  const file = UUID.test(fileId) ? await getSiteFile(ctx.db, siteId, fileId) : undefined;
  if (!file || file.is_folder || !file.sha256) throw new AppError("file_not_found", 404, "File not found");
  try {
    return { file, stream: await ctx.blobs.get(file.sha256) };
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new AppError("file_missing", 410, "The file's content is missing from storage.");
    throw error;
  }
}
