// Files the reliability tests upload, each unique (a marker and random bytes), remembered by
// SHA-256 so that whatever the database says a site holds can be compared byte for byte with
// what was sent.
import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeZip, type ZipEntrySpec } from "../../../server/test/uploads/zipBuilder";
import type { Random } from "./random";

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export interface SiteFile {
  path: string;
  bytes: Buffer;
  type: string;
}

export class Contents {
  private readonly bySha = new Map<string, Buffer>();

  remember(bytes: Buffer): string {
    const sha = sha256(bytes);
    this.bySha.set(sha, bytes);
    return sha;
  }

  get(sha: string): Buffer | undefined {
    return this.bySha.get(sha);
  }
}

const TYPES = { html: "text/html", css: "text/css", js: "text/javascript", png: "image/png", pdf: "application/pdf" } as const;

/** A text file that compresses well (so it gets brotli and gzip forms) with `marker` on every line. */
export function textFile(random: Random, filePath: string, marker: string, size: number): SiteFile {
  const ext = path.extname(filePath).slice(1) as keyof typeof TYPES;
  const line = (n: number) => `<p data-marker="${marker}">${marker} line ${n} ${random.int(0, 1e9)}</p>\n`;
  let text = `<!-- ${marker} -->\n`;
  for (let n = 0; text.length < size; n++) text += line(n);
  return { path: filePath, bytes: Buffer.from(text.slice(0, Math.max(size, marker.length + 9))), type: TYPES[ext] ?? "text/html" };
}

/** Incompressible bytes behind a marker. */
export function binaryFile(random: Random, filePath: string, marker: string, size: number): SiteFile {
  const ext = path.extname(filePath).slice(1) as keyof typeof TYPES;
  const head = Buffer.from(`${marker}\n`);
  return {
    path: filePath,
    bytes: Buffer.concat([head, random.bytes(Math.max(0, size - head.length))]),
    type: TYPES[ext] ?? "application/octet-stream",
  };
}

/** A zip of `files` (stored and deflated entries mixed), as bytes. */
export async function zipOf(random: Random, scratch: string, files: readonly SiteFile[]): Promise<Buffer> {
  const file = path.join(scratch, `upload-${random.int(0, 1e9)}.zip`);
  const entries: ZipEntrySpec[] = files.map((f) => ({ name: f.path, data: f.bytes, method: random.next() < 0.5 ? "deflate" : "store" }));
  await writeZip(file, entries);
  try {
    return await readFile(file);
  } finally {
    await rm(file, { force: true });
  }
}

/** The URL path a site file is served at: clean URLs drop ".html" except for index files. */
export function urlPathOf(filePath: string): string {
  const isIndex = filePath === "index.html" || filePath.endsWith("/index.html");
  return `/${!isIndex && filePath.endsWith(".html") ? filePath.slice(0, -5) : filePath}`;
}
