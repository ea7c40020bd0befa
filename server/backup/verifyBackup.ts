// Reading a backup archive back: every entry hashed and checked against the manifest before
// anything trusts it. A restore verifies the whole file first and writes nothing unless it passes;
// a backup is verified before it is given its final name.
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { DumpFormatError } from "./logicalDump";
import { BackupManifest, blobOfPart, DATABASE_PARTS, MANIFEST_NAME, MAX_MANIFEST_BYTES, SECRET_PART, type Part } from "./manifest";
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

/**
 * Pass one: reads the whole archive, hashing every entry, and returns the manifest only if every
 * entry is listed in it with its size and SHA-256, in order, and nothing listed is missing.
 */
export async function verifyBackup(file: string): Promise<BackupManifest> {
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
  let parsed: ReturnType<typeof BackupManifest.safeParse>;
  try {
    parsed = BackupManifest.safeParse(JSON.parse(manifestText));
  } catch {
    throw new InvalidBackupError("The archive's manifest.json is not JSON.");
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidBackupError(`The archive's manifest.json is not one this Berth reads (${issue?.path.join(".")}: ${issue?.message}).`);
  }
  const manifest = parsed.data;
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
  if (manifest.blobs.count !== blobs.length || manifest.blobs.bytes !== blobs.reduce((sum, p) => sum + p.size, 0)) {
    throw new InvalidBackupError("The manifest's blob count or size does not match the archive.");
  }
  if (manifest.database.part !== DATABASE_PARTS[manifest.database.kind] || !names.has(manifest.database.part)) {
    throw new InvalidBackupError("The archive has no database.");
  }
  if (!names.has(SECRET_PART)) throw new InvalidBackupError("The archive has no secret.");
  return manifest;
}
