// Reading a backup archive back: every entry hashed and checked against the manifest before
// anything trusts it. A restore verifies the whole file first and writes nothing unless it passes;
// a backup is verified before it is given its final name. A daily archive's blobs are in the shared
// folder beside it (sharedBlobs.ts): each one it lists must be there, with its size and SHA-256.
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { DumpFormatError } from "./logicalDump";
import {
  BackupManifest,
  blobOfPart,
  DATABASE_PARTS,
  MANIFEST_NAME,
  MAX_MANIFEST_BYTES,
  SECRET_PART,
  type Part,
  type SharedBlobsManifest,
} from "./manifest";
import { checkSharedBlobs, sharedBlobDir } from "./sharedBlobs";
import { readTar, TarFormatError, type TarEntry } from "./tar";

/** The file is not a Berth backup, or it is damaged or was changed: nothing was written. */
export class InvalidBackupError extends Error {}

export async function* hashing(body: AsyncIterable<Buffer>, part: Pick<Part, "name" | "size" | "sha256">): AsyncGenerator<Buffer> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    hash.update(chunk);
    yield chunk;
  }
  if (size !== part.size || hash.digest("hex") !== part.sha256) {
    throw new InvalidBackupError(`${part.name} does not match the manifest: the archive was changed.`);
  }
}

export async function collect(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new InvalidBackupError("An entry of the archive is larger than it may be.");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Runs `onEntry` for each entry of the gzipped tar; damage of any kind becomes InvalidBackupError. */
export async function readArchive(file: string, onEntry: (entry: TarEntry) => Promise<void>): Promise<void> {
  if (!existsSync(file)) throw new InvalidBackupError(`There is no file ${file}.`);
  try {
    await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const entry of readTar(source)) await onEntry(entry);
    });
  } catch (error) {
    if (error instanceof TarFormatError || error instanceof DumpFormatError) throw new InvalidBackupError(`${file} is damaged: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code.startsWith("Z_") || code === "ERR_STREAM_PREMATURE_CLOSE")
      throw new InvalidBackupError(`${file} is not a Berth backup, or it is damaged (${(error as Error).message}).`);
    throw error;
  }
}

function checkPartName(name: string, seen: Set<string>): void {
  const known = name === SECRET_PART || Object.values(DATABASE_PARTS).includes(name as never) || blobOfPart(name) !== undefined;
  if (!known) throw new InvalidBackupError(`The archive holds ${JSON.stringify(name)}, which is not part of a Berth backup.`);
  if (seen.has(name)) throw new InvalidBackupError(`The archive holds ${name} twice.`);
  seen.add(name);
}

export interface VerifyOptions {
  /**
   * Whether the shared blobs a daily archive lists are read and hashed (the default), or only
   * checked to exist with their size.
   */
  sharedDigests?: boolean;
}

/** Parses manifest.json's text; anything this Berth does not read is an InvalidBackupError. */
function parseManifest(text: string): BackupManifest {
  let parsed: ReturnType<typeof BackupManifest.safeParse>;
  try {
    parsed = BackupManifest.safeParse(JSON.parse(text));
  } catch {
    throw new InvalidBackupError("The archive's manifest.json is not JSON.");
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidBackupError(`The archive's manifest.json is not one this Berth reads (${issue?.path.join(".")}: ${issue?.message}).`);
  }
  return parsed.data;
}

/**
 * The archive's manifest, read without checking anything else (every entry is still read through,
 * as gzip allows no skipping). For pruning the shared folder, which must know what each kept
 * backup lists; never for restoring.
 */
export async function readManifest(file: string): Promise<BackupManifest> {
  let manifestText: string | undefined;
  await readArchive(file, async (entry) => {
    if (entry.name === MANIFEST_NAME) manifestText = (await collect(entry.body, MAX_MANIFEST_BYTES)).toString("utf8");
  });
  if (manifestText === undefined) throw new InvalidBackupError("The archive has no manifest.json: it is not a complete Berth backup.");
  return parseManifest(manifestText);
}

const listed = (shas: string[]) => `${shas.slice(0, 3).join(", ")}${shas.length > 3 ? ", …" : ""}`;

/** A daily archive: its list agrees with itself, and the shared folder beside `file` holds every listed blob. */
async function verifySharedBlobs(file: string, manifest: SharedBlobsManifest, digests: boolean): Promise<void> {
  const { list } = manifest.blobs;
  const names = new Set(list.map((b) => b.sha256));
  if (names.size !== list.length) throw new InvalidBackupError("The manifest lists a blob twice.");
  if (manifest.blobs.count !== list.length || manifest.blobs.bytes !== list.reduce((sum, b) => sum + b.size, 0)) {
    throw new InvalidBackupError("The manifest's blob count or size does not match its list of blobs.");
  }
  const dir = sharedBlobDir(path.dirname(file));
  const { missing, damaged } = await checkSharedBlobs(dir, list, { digests });
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`${missing.length} blob(s) it lists are missing from ${dir} (${listed(missing)})`);
  if (damaged.length > 0) {
    problems.push(`${damaged.length} blob(s) in ${dir} do not hold the bytes it lists (size or SHA-256 differs: ${listed(damaged)})`);
  }
  if (problems.length > 0) {
    throw new InvalidBackupError(
      `The backup ${path.basename(file)} keeps its blobs in ${dir}, and ${problems.join("; ")}. Copy the whole backups folder, blobs included.`,
    );
  }
}

/**
 * Pass one: reads the whole archive, hashing every entry, and returns the manifest only if every
 * entry is listed in it with its size and SHA-256, in order, and nothing listed is missing; for a
 * daily archive, only if the shared folder beside it holds every blob it lists.
 */
export async function verifyBackup(file: string, options: VerifyOptions = {}): Promise<BackupManifest> {
  const seen: Part[] = [];
  const names = new Set<string>();
  let manifestText: string | undefined;
  await readArchive(file, async (entry) => {
    if (manifestText !== undefined) throw new InvalidBackupError("The archive goes on after its manifest.");
    if (entry.name === MANIFEST_NAME) {
      manifestText = (await collect(entry.body, MAX_MANIFEST_BYTES)).toString("utf8");
      return;
    }
    checkPartName(entry.name, names);
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of entry.body) {
      hash.update(chunk);
      size += chunk.length;
    }
    seen.push({ name: entry.name, size, sha256: hash.digest("hex") });
  });
  if (manifestText === undefined) throw new InvalidBackupError("The archive has no manifest.json: it is not a complete Berth backup.");
  const manifest = parseManifest(manifestText);
  if (manifest.parts.length !== seen.length)
    throw new InvalidBackupError("The archive's entries do not match its manifest: parts are missing or were added.");
  manifest.parts.forEach((part, i) => {
    const actual = seen[i]!;
    if (part.name !== actual.name) throw new InvalidBackupError("The archive's entries do not match its manifest: parts are missing or were added.");
    if (part.size !== actual.size || part.sha256 !== actual.sha256) {
      throw new InvalidBackupError(`${part.name} does not match the SHA-256 the manifest gives it: the archive was changed or damaged.`);
    }
    const blob = blobOfPart(part.name);
    if (blob !== undefined && blob !== part.sha256) throw new InvalidBackupError(`${part.name} does not hold the blob its name says.`);
  });
  const blobs = seen.filter((p) => blobOfPart(p.name) !== undefined);
  if (manifest.formatVersion === 1) {
    if (manifest.blobs.count !== blobs.length || manifest.blobs.bytes !== blobs.reduce((sum, p) => sum + p.size, 0)) {
      throw new InvalidBackupError("The manifest's blob count or size does not match the archive.");
    }
  } else if (blobs.length > 0) {
    throw new InvalidBackupError("The archive holds blobs although its manifest keeps them in the shared folder.");
  }
  if (manifest.database.part !== DATABASE_PARTS[manifest.database.kind] || !names.has(manifest.database.part)) {
    throw new InvalidBackupError("The archive has no database.");
  }
  if (!names.has(SECRET_PART)) throw new InvalidBackupError("The archive has no secret.");
  if (manifest.formatVersion === 2) await verifySharedBlobs(file, manifest, options.sharedDigests ?? true);
  return manifest;
}
