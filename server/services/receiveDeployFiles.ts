// The files of an open deploy, sent by digest: one per request, or many in an uncompressed tar
// whose entries are named by their digest. Bytes go straight into the blob store, bounded by the
// size the manifest gives, and count only once their SHA-256 is the one they were sent for. A
// refused request leaves nothing: the blobs it created go again and no digest is recorded.
//
// Until the publish refers to them, received blobs are kept by their deploy_uploads rows (see
// blobsNothingRefersTo), so those rows follow the rule every row referring to a blob follows
// (releaseBlobs.ts): written under the blob's lock, and only while its bytes are stored.
import { Readable } from "node:stream";
import { DEPLOY_TEXT, SHA256_HEX } from "../../common/deploys";
import type { AppContext } from "../context";
import { lockBlobs, registerBlobs } from "../db/repositories/blobs";
import { digestsHeld, lockDeploy, recordUploads, type Deploy } from "../db/repositories/deploys";
import { AppError } from "../errors";
import { BlobTooLargeError, type BlobStore, type PutResult } from "../storage/blobStore";
import { displayName, tarError, zipError } from "../uploads/errors";
import { BATCHED_FILE_MAX_BYTES, PutBatcher, readEntry } from "../uploads/putBatcher";
import { readTarEntries, TarFormatError } from "../uploads/tarReader";
import { uploadInterrupted } from "./commitFiles";
import { deployDigests, stillMissing, type DeployDigests } from "./deployDigests";
import { requireDeploy, requireOpen } from "./openDeploy";
import { deleteUnreferencedBytes } from "./releaseBlobs";

type Context = Pick<AppContext, "db" | "blobs">;

/**
 * Stores one file of the deploy. A digest the deploy has received, or the user stores already,
 * is answered without reading the body. `declaredLength`: the request's Content-Length, which
 * lets a wrong size be refused before any byte is read.
 */
export async function receiveDeployFile(
  ctx: Context,
  input: { userId: string; siteId: string; deployId: string; sha256: string; body: Readable; declaredLength: number | undefined },
): Promise<void> {
  const deploy = await requireDeploy(ctx.db, input.userId, input.siteId, input.deployId);
  requireOpen(deploy);
  if (!SHA256_HEX.test(input.sha256)) throw new AppError("invalid_digest", 400, DEPLOY_TEXT.badDigest);
  const wanted = (await deployDigests.read(ctx.db, deploy.id)).get(input.sha256);
  if (!wanted) throw new AppError("not_in_manifest", 400, DEPLOY_TEXT.notInManifest(input.sha256));
  if ((await digestsHeld(ctx.db, deploy.id, input.userId, [input.sha256])).size > 0) return;
  if (input.declaredLength !== undefined && input.declaredLength !== wanted.size) throw sizeMismatch(wanted.path, wanted.size, input.declaredLength);
  const put = await storeExpected(ctx.blobs, input.body, { ...wanted, sha256: input.sha256 }, ctx);
  await recordReceived(ctx, deploy, [put]);
}

/**
 * Stores the files of an uncompressed tar whose entries are named by digest. Every entry must be
 * a plain file of the manifest, of the manifest's size, once; the first that is not refuses the
 * whole archive. Entries already held are read past. Returns once every stored file is recorded:
 * the deploy as it is then, and the digests it still needs.
 */
export async function receiveDeployTar(
  ctx: Context,
  input: { userId: string; siteId: string; deployId: string; body: Readable },
): Promise<{ deploy: Deploy; missing: string[] }> {
  const deploy = await requireDeploy(ctx.db, input.userId, input.siteId, input.deployId);
  requireOpen(deploy);
  const digests = await deployDigests.read(ctx.db, deploy.id);
  const current = await storeTar(ctx, deploy, digests, input.body);
  return { deploy: current, missing: await stillMissing(ctx.db, current, digests) };
}

/**
 * The last files of a deploy, sent with its publish in the same tar: stored as receiveDeployTar
 * stores them, unless the deploy was published (or failed to) already: that is a publish sent
 * again after its answer was lost, whose files came the first time. Its body is then not read, and
 * the publish answers as it did.
 */
export async function receiveFilesWithPublish(
  ctx: Context,
  input: { userId: string; siteId: string; deployId: string; body: Readable },
): Promise<void> {
  const deploy = await requireDeploy(ctx.db, input.userId, input.siteId, input.deployId);
  if (deploy.status !== "uploading") return;
  requireOpen(deploy);
  await storeTar(ctx, deploy, await deployDigests.read(ctx.db, deploy.id), input.body);
}

/** Stores a tar's entries against the manifest's digests; the deploy as it is once they are recorded. */
async function storeTar(ctx: Context, deploy: Deploy, wanted: DeployDigests, body: Readable): Promise<Deploy> {
  const held = await digestsHeld(ctx.db, deploy.id, deploy.user_id, [...wanted.keys()]);
  const seen = new Set<string>();
  // Small entries are stored in batches while the next ones are read (uploads/putBatcher.ts);
  // large ones stream straight in. Nothing is recorded before every one of them is stored.
  const batcher = new PutBatcher<{ path: string; size: number; sha256: string }>(ctx.blobs);
  const streamed: PutResult[] = [];
  let stored: PutResult[];
  try {
    for await (const entry of readTarEntries(body)) {
      if (entry.type === "symlink") throw zipError.symlink(entry.name);
      if (entry.type === "hardlink") throw tarError.hardLink(entry.name);
      if (entry.type !== "file") throw zipError.specialFile(entry.name);
      const sha256 = entry.name.startsWith("./") ? entry.name.slice(2) : entry.name;
      const file = SHA256_HEX.test(sha256) ? wanted.get(sha256) : undefined;
      if (!file) throw new AppError("not_in_manifest", 400, DEPLOY_TEXT.notInManifest(displayName(entry.name)));
      if (seen.has(sha256)) throw zipError.duplicate(sha256);
      seen.add(sha256);
      if (entry.size !== file.size) throw sizeMismatch(file.path, file.size, entry.size);
      if (held.has(sha256)) continue;
      const expected = { ...file, sha256 };
      if (entry.size > BATCHED_FILE_MAX_BYTES) {
        streamed.push(await storeExpected(ctx.blobs, Readable.from(entry.body), expected, ctx));
        continue;
      }
      // The size is the manifest's, checked above, so this holds at most BATCHED_FILE_MAX_BYTES.
      await batcher.add(expected, await readEntry(entry.body, entry.size, () => tarError.invalid(`${entry.name} is longer than its header says`)));
    }
    const batched = await batcher.finish();
    stored = [...streamed, ...batched.map(({ put }) => put)];
    const wrong = batched.find(({ tag, put }) => put.sha256 !== tag.sha256 || put.size !== tag.size);
    if (wrong) throw new AppError("digest_mismatch", 400, DEPLOY_TEXT.digestMismatch(wrong.tag.sha256));
  } catch (error) {
    await discardCreated(ctx, [...streamed, ...(await batcher.abandon())]);
    throw error instanceof TarFormatError ? tarError.invalid(error.message) : error;
  }
  return recordReceived(ctx, deploy, stored);
}

/**
 * Streams `body` into the store, reading no more than the manifest's size, and checks the digest.
 * A wrong file is deleted again when this call created it.
 */
async function storeExpected(
  store: BlobStore,
  body: Readable,
  expected: { path: string; size: number; sha256: string },
  ctx: Context,
): Promise<PutResult> {
  let put: PutResult;
  try {
    put = await store.put(body, { maxBytes: expected.size });
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw new AppError("size_mismatch", 400, DEPLOY_TEXT.sizeExceeded(expected.path, expected.size));
    throw error;
  }
  if (put.size === expected.size && put.sha256 === expected.sha256) return put;
  await discardCreated(ctx, [put]);
  if (put.size !== expected.size) throw sizeMismatch(expected.path, expected.size, put.size);
  throw new AppError("digest_mismatch", 400, DEPLOY_TEXT.digestMismatch(expected.sha256));
}

/**
 * Records the stored files as the deploy's, in one transaction: the deploy still open (its row
 * shared, so no publish runs meanwhile), the blobs' locks, and the bytes still there (a release
 * elsewhere may have deleted bytes a put found already stored). Otherwise nothing is recorded.
 * Returns the deploy's row as it was read under the lock.
 */
export async function recordReceived(ctx: Context, deploy: Deploy, puts: readonly PutResult[]): Promise<Deploy> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const open = await lockDeploy(tx, deploy.id, "share");
      if (!open) throw new AppError("deploy_not_found", 404, DEPLOY_TEXT.deployNotFound);
      requireOpen(open);
      if (puts.length === 0) return open;
      await lockBlobs(
        tx,
        puts.map((p) => p.sha256),
      );
      if ((await ctx.blobs.missing(puts.map((p) => p.sha256))).length > 0) throw uploadInterrupted();
      await recordUploads(
        tx,
        deploy.id,
        puts.map((p) => p.sha256),
      );
      await registerBlobs(tx, [...puts]);
      return open;
    });
  } catch (error) {
    await discardCreated(ctx, puts);
    throw error;
  }
}

/** Deletes the bytes these puts created, unless a row (another deploy's, say) refers to them by now. */
async function discardCreated(ctx: Context, puts: readonly PutResult[]): Promise<void> {
  await deleteUnreferencedBytes(
    ctx,
    puts.filter((p) => p.created).map((p) => p.sha256),
  ).catch(() => undefined);
}

const sizeMismatch = (path: string, expected: number, got: number) =>
  new AppError("size_mismatch", 400, DEPLOY_TEXT.sizeMismatch(path, expected, got));
