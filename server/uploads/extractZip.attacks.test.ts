// Archives that must be refused. Every case checks the refusal's code, that the blob directory is
// exactly as it was (the blobs created before the bad entry are deleted, and no temp file is
// left), and that the zip's file descriptor is closed.
import { mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UploadErrorCode } from "./errors";
import { extractZip } from "./extractZip";
import type { ZipExtractLimits } from "./limits";
import { createSandbox, expectClosed, expectUploadError, filesUnder, type Sandbox } from "../test/uploads/sandbox";
import { CREATOR, UNIX_MODE, unicodePathExtra, writeZip, zeros, type ZipEntrySpec } from "../test/uploads/zipBuilder";

const MB = 1024 * 1024;
const LIMITS: ZipExtractLimits = { maxEntries: 100, maxTotalBytes: 10 * MB, maxFileBytes: 1 * MB };
/** Comes first in most archives, so that every refusal has a created blob to roll back. */
const GOOD = { name: "index.html", data: "<h1>before the bad entry</h1>" } satisfies ZipEntrySpec;

let sandbox: Sandbox;
let zipPath: string;
beforeEach(async () => {
  sandbox = await createSandbox();
  zipPath = path.join(sandbox.root, "upload.zip");
  // A blob that exists before the upload: the archive below may contain the same bytes, and a
  // rollback must never delete what it did not create.
  await sandbox.store.put(Readable.from([Buffer.from("already stored")]), { maxBytes: MB });
});
afterEach(async () => {
  await sandbox.cleanup();
});

async function refuseFile(file: string, code: UploadErrorCode, limits = LIMITS) {
  const before = await filesUnder(sandbox.blobDir);
  const error = await expectUploadError(extractZip(file, sandbox.store, limits), code);
  expect(await filesUnder(sandbox.blobDir)).toEqual(before);
  await expectClosed(file);
  return error;
}

async function refuse(entries: ZipEntrySpec[], code: UploadErrorCode, limits = LIMITS) {
  await writeZip(zipPath, entries);
  return refuseFile(zipPath, code, limits);
}

describe("unsafe paths", () => {
  it.each([
    ["../../evil.sh", "../../evil.sh"],
    ["a/../../evil.sh", "a/../../evil.sh"],
    ["../", "../"],
    ["/etc/cron.d/evil", "/etc/cron.d/evil"],
    ["/", "/"],
    ["C:\\Windows\\evil.exe", "C:\\Windows\\evil.exe"],
    ["C:/Windows/evil.exe", "C:/Windows/evil.exe"],
    ["c:evil.exe", "c:evil.exe"],
    ["..\\..\\evil.sh", "..\\..\\evil.sh"],
    ["a\\b.html", "a\\b.html"],
    ["a\u0000b.html", "a\\u0000b.html"],
    ["index.html\u0000.png", "index.html\\u0000.png"],
    ["a\nb.html", "a\\u000ab.html"],
    ["a\u001bb.html", "a\\u001bb.html"],
    ["a\u007fb.html", "a\\u007fb.html"],
    ["./index.html", "./index.html"],
    ["a//b.html", "a//b.html"],
    ["x/./y.html", "x/./y.html"],
    [" /x.html", " /x.html"],
  ])("%j", async (name, shown) => {
    const error = await refuse([GOOD, { name: "already.txt", data: "already stored" }, { name, data: "pwned" }], "zip_unsafe_path");
    expect(error.description).toContain(`The archive contains an unsafe path: ${shown}`);
  });

  it("judges the Unicode Path extra field, which readers prefer over the header's name", async () => {
    const error = await refuse(
      [GOOD, { name: "safe.html", extra: unicodePathExtra("safe.html", "../../evil.sh"), data: "pwned" }],
      "zip_unsafe_path",
    );
    expect(error.description).toContain("../../evil.sh");
  });

  it("refuses a name over 255 bytes", async () => {
    await refuse([GOOD, { name: `${"x".repeat(256)}.html`, data: "x" }], "zip_unsafe_path");
  });
});

describe("links and special files", () => {
  it.each([
    ["a Unix symlink", { name: "link", mode: UNIX_MODE.symlink, data: "/etc/passwd" }, "zip_symlink"],
    ["a symlink to a folder", { name: "up/", mode: UNIX_MODE.symlink, data: "../.." }, "zip_symlink"],
    ["a macOS symlink", { name: "link", creator: 19, mode: UNIX_MODE.symlink, data: "/" }, "zip_symlink"],
    [
      "a p7zip symlink (host MS-DOS, Unix mode flagged by 0x8000)",
      { name: "link", creator: CREATOR.dos, externalAttributes: ((UNIX_MODE.symlink << 16) | 0x8020) >>> 0, data: "/" },
      "zip_symlink",
    ],
    ["a character device", { name: "null", mode: UNIX_MODE.charDevice }, "zip_special_file"],
    ["a block device", { name: "sda", mode: UNIX_MODE.blockDevice }, "zip_special_file"],
    ["a FIFO", { name: "pipe", mode: UNIX_MODE.fifo }, "zip_special_file"],
    ["a socket", { name: "sock", mode: UNIX_MODE.socket }, "zip_special_file"],
  ] as const)("refuses %s", async (_label, entry, code) => {
    const error = await refuse([GOOD, entry], code);
    expect(error.description).toContain(entry.name);
  });
});

describe("sizes", () => {
  it("refuses more entries than maxEntries before reading any", async () => {
    const entries = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }));
    const error = await refuse(entries, "zip_too_many_entries", { ...LIMITS, maxEntries: 20 });
    expect(error.description).toBe("The archive has more than 20 entries");
  });

  it.each([
    ["deflated data longer than its header says", { data: Buffer.alloc(MB, 0x20), method: "deflate", lie: { uncompressedSize: 1000 } }],
    ["deflated data shorter than its header says", { data: Buffer.alloc(1000, 0x20), method: "deflate", lie: { uncompressedSize: 5000 } }],
    ["stored data longer than both sizes say", { data: Buffer.alloc(100, 0x20), lie: { uncompressedSize: 10, compressedSize: 10 } }],
    ["stored sizes that disagree", { data: Buffer.alloc(100, 0x20), lie: { uncompressedSize: 10 } }],
    ["a wrong CRC-32", { data: "hello world", method: "deflate", lie: { crc32: 0x12345678 } }],
  ] as const)("refuses %s", async (_label, lie) => {
    await refuse([GOOD, { name: "lying.bin", ...lie }, { name: "after.html", data: "never read" }], "zip_invalid");
  });
});

describe("a zip bomb", () => {
  let bombDir: string;
  let bomb: string;
  beforeAll(async () => {
    bombDir = await mkdtemp(path.join(tmpdir(), "berth-bomb-"));
    bomb = path.join(bombDir, "bomb.zip");
    // 300 MB of zeros deflate to about 300 KB; they are generated and compressed as a stream.
    const size = await writeZip(bomb, [GOOD, { name: "zeros.bin", data: zeros(300 * MB), method: "deflate" }]);
    expect(size).toBeLessThan(MB);
  });
  afterAll(async () => {
    await rm(bombDir, { recursive: true, force: true });
  });

  it("is refused at the total limit", async () => {
    const limits = { maxEntries: 10, maxTotalBytes: 50 * MB, maxFileBytes: 100 * MB };
    const error = await refuseFile(bomb, "zip_too_large", limits);
    expect(error.description).toBe("The archive unpacks to more than 50MB");
  });

  it("is inflated in flat memory", async () => {
    // A generous budget, so that a reader that buffered the entry would hold 250 MB at the end,
    // far above what garbage waiting for collection amounts to: 30 MB alone, up to 68 MB with the
    // whole suite running beside it on Node 24, whose collector lets the young generation grow.
    const limits = { maxEntries: 10, maxTotalBytes: 250 * MB, maxFileBytes: 250 * MB };
    const baseline = memory();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, memory())), 5);
    try {
      await refuseFile(bomb, "zip_too_large", limits);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline).toBeLessThan(128 * MB);
  });

  it("is refused at the per-file limit", async () => {
    await refuseFile(bomb, "file_too_large", { maxEntries: 10, maxTotalBytes: 1024 * MB, maxFileBytes: 50 * MB });
  });

  it("is refused at the quota", async () => {
    await refuseFile(bomb, "quota_exceeded", { maxEntries: 10, maxTotalBytes: 1024 * MB, maxFileBytes: 1024 * MB, quotaBytes: 20 * MB });
  });
});

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

describe("not a zip", () => {
  it.each([
    ["an empty file", Buffer.alloc(0)],
    ["text", Buffer.from("<html>this is not a zip</html>")],
    ["a PDF named .zip", Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")],
  ])("refuses %s", async (_label, bytes) => {
    await writeFile(zipPath, bytes);
    await refuseFile(zipPath, "zip_invalid");
  });

  it("refuses a truncated zip", async () => {
    const size = await writeZip(zipPath, [GOOD, { name: "b.html", data: "b".repeat(5000), method: "deflate" }]);
    await truncate(zipPath, Math.floor(size / 2));
    await refuseFile(zipPath, "zip_invalid");
  });

  it.each([
    ["into the file data", () => 4],
    ["past the end of the file", (size: number) => size + 100],
  ])("refuses a zip whose central directory offset points %s", async (_label, offset) => {
    const size = await writeZip(zipPath, [GOOD, { name: "b.html", data: "b" }]);
    const bytes = await readFile(zipPath);
    bytes.writeUInt32LE(offset(size), size - 22 + 16);
    await writeFile(zipPath, bytes);
    await refuseFile(zipPath, "zip_invalid");
  });

  it("refuses corrupted deflate data and rolls back the entries before it", async () => {
    await writeZip(zipPath, [GOOD, { name: "c.css", data: "x".repeat(10_000), method: "deflate" }]);
    const bytes = await readFile(zipPath);
    const dataStart = bytes.indexOf("c.css") + "c.css".length;
    bytes.fill(0xff, dataStart, dataStart + 8);
    await writeFile(zipPath, bytes);
    await refuseFile(zipPath, "zip_invalid");
  });

  it.each([
    ["deflated", { data: "secret", method: "deflate" }],
    // Traditional encryption puts a 12-byte header before stored data.
    ["stored", { data: "123456789012xx", lie: { uncompressedSize: 2 } }],
  ] as const)("refuses password-protected %s entries", async (_label, entry) => {
    await refuse([GOOD, { name: "secret.html", flags: 0x1, ...entry }], "zip_encrypted");
  });

  it("refuses compression methods it cannot read", async () => {
    const error = await refuse([GOOD, { name: "x.html", data: "xx", methodId: 12 }], "zip_invalid");
    expect(error.description).toContain("compression method");
  });

  it.each([
    ["no entries", []],
    ["only folders", [{ name: "a/" }, { name: "a/b/" }]],
    [
      "only junk",
      [
        { name: "__MACOSX/._x", data: "x" },
        { name: ".DS_Store", data: "x" },
      ],
    ],
  ] as const)("refuses an archive with %s", async (_label, entries) => {
    await refuse([...entries], "zip_empty");
  });
});

describe("duplicates", () => {
  it.each([
    ["the same path twice", [GOOD, { name: "a.html", data: "1" }, { name: "a.html", data: "2" }]],
    ["the same path in two Unicode forms", [GOOD, { name: "caf\u00e9.html", data: "1" }, { name: "cafe\u0301.html", data: "2" }]],
    ["a file and a folder of the same name", [GOOD, { name: "docs", data: "1" }, { name: "docs/a.html", data: "2" }]],
    ["a file and an explicit folder", [GOOD, { name: "docs/" }, { name: "docs", data: "1" }]],
  ] as const)("refuses %s", async (_label, entries) => {
    await refuse([...entries], "zip_duplicate_path");
  });

  it("allows names that differ only in case", async () => {
    await writeZip(zipPath, [
      { name: "A.html", data: "1" },
      { name: "a.html", data: "2" },
    ]);
    const result = await extractZip(zipPath, sandbox.store, LIMITS);
    expect(result.files.map((file) => file.path)).toEqual(["A.html", "a.html"]);
  });
});
