// The tar writer's archives, read back by two independent readers: GNU tar (or whatever `tar` the
// machine has) and the strict reader the server's backups use, which checks every checksum.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTar } from "../../server/backup/tar";
import { TAR_MAX_ENTRY_BYTES, tarArchive, tarHeader, tarSize, type TarEntry } from "./tar";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const dir = mkdtempSync(path.join(os.tmpdir(), "berth-cli-tar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Entries named by their digest, as a deploy sends them: empty, block-sized, odd-sized, larger. */
const ENTRIES: TarEntry[] = [Buffer.alloc(0), Buffer.from("<h1>hello</h1>\n"), randomBytes(512), randomBytes(513), randomBytes(200_000)].map(
  (data) => ({ name: sha256(data), data }),
);

describe("the tar writer", () => {
  const archive = tarArchive(ENTRIES);

  it("writes whole 512-byte blocks and says its size in advance", () => {
    expect(archive.length % 512).toBe(0);
    expect(archive.length).toBe(tarSize(ENTRIES.map((e) => e.data.length)));
    expect(archive.subarray(-1024).every((byte) => byte === 0)).toBe(true);
  });

  it("is read back by the system's tar: names, sizes and bytes", () => {
    const file = path.join(dir, "batch.tar");
    writeFileSync(file, archive);
    const listing = execFileSync("tar", ["-tvf", file], { encoding: "utf8" }).trim().split("\n");
    expect(listing).toHaveLength(ENTRIES.length);
    for (const [i, entry] of ENTRIES.entries()) {
      expect(listing[i]).toMatch(new RegExp(`^-rw-r--r-- .*\\s${entry.data.length}\\s.*${entry.name}$`));
    }
    const out = path.join(dir, "out");
    execFileSync("mkdir", ["-p", out]);
    execFileSync("tar", ["-xf", file, "-C", out]);
    for (const entry of ENTRIES) expect(sha256(readFileSync(path.join(out, entry.name)))).toBe(entry.name);
  });

  it("is read back by the server's strict reader, checksums and end marker included", async () => {
    const read: { name: string; sha256: string }[] = [];
    for await (const entry of readTar(
      (async function* () {
        // In uneven pieces, as a request body arrives.
        for (let at = 0; at < archive.length; at += 7_001) yield archive.subarray(at, at + 7_001);
      })(),
    )) {
      const parts: Buffer[] = [];
      for await (const chunk of entry.body) parts.push(chunk);
      read.push({ name: entry.name, sha256: sha256(Buffer.concat(parts)) });
    }
    expect(read).toEqual(ENTRIES.map((e) => ({ name: e.name, sha256: e.name })));
  });

  it("refuses what a header cannot hold", () => {
    expect(() => tarHeader("x".repeat(101), 1)).toThrow(/does not fit/);
    expect(() => tarHeader("big", TAR_MAX_ENTRY_BYTES + 1)).toThrow(/too large/);
    expect(tarHeader("x".repeat(100), TAR_MAX_ENTRY_BYTES)).toHaveLength(512);
  });
});
