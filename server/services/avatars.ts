// Profile pictures. The bytes go into the blob store like site files (content-addressed, so two
// identical pictures, or a picture that is also a site's file, are one blob). The type is decided
// by the first bytes, never by the name or the browser's claim: only PNG, JPEG and WebP are kept,
// so an SVG or an HTML page renamed .png is refused. A picture is served to its owner only.
import { Readable } from "node:stream";
import type { AppContext } from "../context";
import { AppError } from "../errors";
import { lockBlobs, registerBlobs } from "../db/repositories/blobs";
import { getProfileForUser, lockProfile, setAvatar } from "../db/repositories/profiles";
import { deleteUnreferencedBytes, releaseBlobs } from "./releaseBlobs";
import { ACCOUNT_TEXT, AVATAR_MAX_BYTES, type AvatarType } from "../../common/account";

type AvatarContext = Pick<AppContext, "db" | "blobs" | "log">;

export const avatarTooLarge = () => new AppError("avatar_too_large", 413, ACCOUNT_TEXT.avatarTooLarge, undefined, ACCOUNT_TEXT.avatarTooLargeDetail);
export const avatarUnsupported = () =>
  new AppError("avatar_unsupported_type", 400, ACCOUNT_TEXT.avatarUnsupported, undefined, ACCOUNT_TEXT.avatarUnsupportedDetail);
export const avatarNotFound = () => new AppError("avatar_not_found", 404, ACCOUNT_TEXT.avatarNotFound);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** The image type the bytes start with, or null for anything else. */
export function sniffImageType(bytes: Buffer): AvatarType | null {
  if (bytes.length >= PNG.length && bytes.subarray(0, PNG.length).equals(PNG)) return "image/png";
  if (bytes.length >= 4 && bytes.subarray(0, JPEG.length).equals(JPEG)) return "image/jpeg";
  if (bytes.length >= 16 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "image/webp";
  return null;
}

/** Where the dashboard loads the picture; the version changes with the bytes, so caches never show an old one. */
export function avatarUrl(sha256: string | null | undefined): string | null {
  return sha256 ? `/api/me/avatar?v=${sha256.slice(0, 12)}` : null;
}

/**
 * Reads an uploaded picture into memory (2 MB at most). More than that → 413 as soon as the
 * limit is crossed: the rest is never read.
 */
export async function readAvatarUpload(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Leaving the loop destroys the stream, so the rest of an oversized upload is not read.
    if (size > AVATAR_MAX_BYTES) throw avatarTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Makes `bytes` the user's picture, replacing (and releasing) the previous one. */
export async function saveAvatar(ctx: AvatarContext, userId: string, bytes: Buffer): Promise<{ sha256: string; type: AvatarType }> {
  if (bytes.length > AVATAR_MAX_BYTES) throw avatarTooLarge();
  const type = sniffImageType(bytes);
  if (!type) throw avatarUnsupported();
  const stored = await ctx.blobs.put(Readable.from([bytes]), { maxBytes: AVATAR_MAX_BYTES });
  const previous = await ctx.db.transaction(async (tx) => {
    await lockBlobs(tx, [stored.sha256]);
    // The bytes existed already and a release of the same bytes may have deleted them since.
    if (!(await ctx.blobs.stat(stored.sha256))) await ctx.blobs.put(Readable.from([bytes]), { maxBytes: AVATAR_MAX_BYTES });
    await registerBlobs(tx, [{ sha256: stored.sha256, size: stored.size }]);
    const profile = await lockProfile(tx, userId);
    await setAvatar(tx, userId, { sha256: stored.sha256, type, url: avatarUrl(stored.sha256)! });
    return profile?.avatar_sha256 ?? null;
  });
  if (previous && previous !== stored.sha256) await releaseAvatarBlob(ctx, previous);
  return { sha256: stored.sha256, type };
}

/** Removes the user's picture. False when there was none. */
export async function removeAvatar(ctx: AvatarContext, userId: string): Promise<boolean> {
  const previous = await ctx.db.transaction(async (tx) => {
    const profile = await lockProfile(tx, userId);
    if (!profile?.avatar_sha256) return null;
    await setAvatar(tx, userId, null);
    return profile.avatar_sha256;
  });
  if (!previous) return false;
  await releaseAvatarBlob(ctx, previous);
  return true;
}

/**
 * Deletes a picture's blob once nothing uses it: no profile shows it, and no site file,
 * deployment or compressed form refers to the same bytes. Safe to call for any picture blob
 * (deleting a user's data calls it too). The bytes go as every released blob's do: a picture
 * being saved with them waits for the lock, then sees them gone and stores them again.
 */
export async function releaseAvatarBlob(ctx: AvatarContext, sha256: string): Promise<void> {
  const garbage = await ctx.db.transaction((tx) => releaseBlobs(tx, [sha256]));
  await deleteUnreferencedBytes(ctx, garbage);
}

export interface StoredAvatar {
  sha256: string;
  type: string;
  size: number;
  /** The bytes; only opened when they are to be sent (not for a 304). */
  open(): Promise<Readable>;
}

/** The user's own picture, or 404 when they have none. */
export async function getAvatar(ctx: AvatarContext, userId: string): Promise<StoredAvatar> {
  const profile = await getProfileForUser(ctx.db, userId);
  const sha256 = profile?.avatar_sha256;
  if (!sha256 || !profile.avatar_type) throw avatarNotFound();
  const info = await ctx.blobs.stat(sha256);
  if (!info) {
    ctx.log.error({ userId, sha256 }, "a profile picture's blob is missing");
    throw avatarNotFound();
  }
  return { sha256, type: profile.avatar_type, size: info.size, open: () => ctx.blobs.get(sha256) };
}
