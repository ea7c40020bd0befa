// What a backup archive holds, described by its last entry, manifest.json. The archive is a
// gzipped tar, in this order:
//   blobs/<sha256>           every blob the database refers to (named by the SHA-256 of its bytes)
//   secret                   the server secret: sessions, share links and site passwords depend on it
//   database/pglite.tar      PGlite's data directory, as PGlite's dumpDataDir() makes it, or
//   database/postgres.ndjson a logical dump of every table (logicalDump.ts)
//   manifest.json            this: versions, times, counts, and the SHA-256 of every other entry
// The database comes last but one so that a restore into PostgreSQL commits it after everything
// else has been written.
//
// Two formats share that layout. Version 1 is self-contained: the blobs are entries of the archive,
// so the file can be handed around alone (`berth backup`). Version 2 is the daily backups': blobs
// never change, so seven days of them are stored once, in the folder `blobs/` beside the archives
// (sharedBlobs.ts), and the archive holds no blob entry; its manifest lists every blob it needs
// (SHA-256 and size) instead. Version 2 is a new number because a Berth that only knows version 1
// would read such an archive as one that has lost all its blobs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { SHA256_PATTERN } from "../storage/blobStore";
import { projectRoot } from "../paths";

export const MANIFEST_NAME = "manifest.json";
export const SECRET_PART = "secret";
export const DATABASE_PARTS = { pglite: "database/pglite.tar", postgres: "database/postgres.ndjson" } as const;
export const BLOB_PREFIX = "blobs/";
export const FORMAT = "berth-backup" as const;
/** Self-contained archives: every blob inside. */
export const FORMAT_VERSION = 1;
/** Daily archives: the blobs are in the shared folder beside the archive, listed in the manifest. */
export const SHARED_FORMAT_VERSION = 2;
/** The shared folder of blobs, relative to the folder that holds a version 2 archive. */
export const SHARED_BLOB_DIR = "blobs";
/** A manifest lists every blob; this is far more than millions of them need, and far less than memory. */
export const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

export type DatabaseKind = keyof typeof DATABASE_PARTS;

const Sha256 = z.string().regex(SHA256_PATTERN, "must be a SHA-256 hex digest");

/** A drizzle migration the backed-up database had applied (drizzle.__drizzle_migrations). */
export const AppliedMigration = z.object({ hash: z.string().min(1), createdAt: z.number().int() });
export type AppliedMigration = z.infer<typeof AppliedMigration>;

export const Part = z.object({
  name: z.string().min(1).max(100),
  size: z.number().int().min(0),
  sha256: Sha256,
});
export type Part = z.infer<typeof Part>;

const manifestFields = {
  format: z.literal(FORMAT),
  berthVersion: z.string(),
  /** When the database snapshot was taken: the moment the backup restores to. */
  createdAt: z.iso.datetime(),
  database: z.object({
    kind: z.enum(["pglite", "postgres"]),
    part: z.string(),
    migrations: z.array(AppliedMigration),
  }),
  /** Every entry but the manifest, in archive order. */
  parts: z.array(Part),
};

/** A blob a version 2 archive needs from the shared folder. */
export const SharedBlob = z.object({ sha256: Sha256, size: z.number().int().min(0) });
export type SharedBlob = z.infer<typeof SharedBlob>;

export const SelfContainedManifest = z.object({
  ...manifestFields,
  formatVersion: z.literal(FORMAT_VERSION),
  blobs: z.object({ count: z.number().int().min(0), bytes: z.number().int().min(0) }),
});
export type SelfContainedManifest = z.infer<typeof SelfContainedManifest>;

export const SharedBlobsManifest = z.object({
  ...manifestFields,
  formatVersion: z.literal(SHARED_FORMAT_VERSION),
  blobs: z.object({
    count: z.number().int().min(0),
    bytes: z.number().int().min(0),
    /** Where the listed blobs are, relative to the archive's folder (always the same name). */
    dir: z.literal(SHARED_BLOB_DIR),
    /** Every blob the database refers to, in name order. */
    list: z.array(SharedBlob),
  }),
});
export type SharedBlobsManifest = z.infer<typeof SharedBlobsManifest>;

export const BackupManifest = z.discriminatedUnion("formatVersion", [SelfContainedManifest, SharedBlobsManifest]);
export type BackupManifest = z.infer<typeof BackupManifest>;

export const blobPartName = (sha256: string) => `${BLOB_PREFIX}${sha256}`;

/** The blob a part name stands for, or undefined when the name is not a blob's. */
export function blobOfPart(name: string): string | undefined {
  const sha = name.startsWith(BLOB_PREFIX) ? name.slice(BLOB_PREFIX.length) : "";
  return SHA256_PATTERN.test(sha) ? sha : undefined;
}

let version: string | undefined;
export function berthVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  return version;
}
