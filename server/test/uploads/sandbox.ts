// Shared by the upload tests: a real filesystem blob store in a temporary directory, and the
// checks that a refused upload left nothing behind.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { expect } from "vitest";
import type { BlobStore } from "../../storage/blobStore";
import { createFsBlobStore } from "../../storage/fs";
import { UploadError, type UploadErrorCode } from "../../uploads/errors";

export interface Sandbox {
  root: string;
  blobDir: string;
  store: BlobStore;
  /** Where tests write their zips and receiveToTempFile its uploads. */
  workDir: string;
  cleanup(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  const root = await mkdtemp(path.join(tmpdir(), "berth-uploads-"));
  const blobDir = path.join(root, "blobs");
  const workDir = path.join(root, "work");
  return {
    root,
    blobDir,
    workDir,
    store: createFsBlobStore(blobDir),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Every file under `dir`, relative and sorted; empty directories do not count as content. */
export async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Runs `action` and checks that it fails with an UploadError of `code`; returns the error. */
export async function expectUploadError(action: Promise<unknown>, code: UploadErrorCode): Promise<UploadError> {
  const error: unknown = await action.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error, `expected an UploadError ${code}`).toBeInstanceOf(UploadError);
  const uploadError = error as UploadError;
  expect(uploadError.code, uploadError.description).toBe(code);
  return uploadError;
}

/** Checks that no descriptor of this process still points at `file` (Linux only: /proc). */
export async function expectClosed(file: string): Promise<void> {
  if (!existsSync("/proc/self/fd")) return;
  const open: string[] = [];
  for (const fd of await readdir("/proc/self/fd")) {
    const target = await readlink(path.join("/proc/self/fd", fd)).catch(() => "");
    if (target === file) open.push(fd);
  }
  expect(open, `descriptors still open on ${file}`).toEqual([]);
}
