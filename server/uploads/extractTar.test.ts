// A .tar.gz unpacks as a zip does (same layout, same limits, same refusals), and a refused one
// leaves no blob behind: hostile paths, links, devices, duplicates, lying headers and bombs.
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tarGzOf, tarOf, tarHeader, paxEntry, type TarSpec } from "../test/uploads/tarBuilder";
import { createSandbox, expectUploadError, filesUnder, sha256, type Sandbox } from "../test/uploads/sandbox";
import type { UploadErrorCode } from "./errors";
import { extractTarGz } from "./extractTar";
import type { ZipExtractLimits } from "./limits";

const MB = 1024 * 1024;
const LIMITS = { maxEntries: 100, maxTotalBytes: 4 * MB, maxFileBytes: 1 * MB, maxCompressedBytes: 2 * MB };

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(async () => {
  await sandbox.cleanup();
});

const extract = (archive: Buffer, limits: ZipExtractLimits & { maxCompressedBytes: number } = LIMITS) =>
  extractTarGz(Readable.from([archive]), sandbox.store, limits, (created) => Promise.all(created.map((sha) => sandbox.store.delete(sha))));

describe("extractTarGz", () => {
  it("unpacks files and folders, strips ./ and a single top folder, and skips Finder's junk", async () => {
    const result = await extract(
      tarGzOf([
        { name: "./", type: "5" },
        { name: "./site/", type: "5" },
        { name: "./site/index.html", content: "<h1>Hi</h1>" },
        { name: "./site/empty/", type: "5" },
        { name: "./site/css/site.css", content: "a{}" },
        { name: "./site/.DS_Store", content: "junk" },
        { name: "./__MACOSX/site/._index.html", content: "junk" },
      ]),
    );
    expect(result.files.map((f) => [f.path, f.sha256, f.size])).toEqual([
      ["index.html", sha256("<h1>Hi</h1>"), 11],
      ["css/site.css", sha256("a{}"), 3],
    ]);
    expect(result.folders).toEqual(["css", "empty"]);
    expect(await filesUnder(sandbox.blobDir)).toHaveLength(2);
  });

  it("normalises names to NFC, as every site path is", async () => {
    const result = await extract(tarGzOf([{ name: "cafe\u0301.html", content: "x" }]));
    expect(result.files[0]!.path).toBe("caf\u00e9.html");
  });

  const good: TarSpec = { name: "good.html", content: "kept only if all is well" };
  const refused: [string, Buffer, UploadErrorCode, typeof LIMITS?][] = [
    ["traversal", tarGzOf([good, { name: "../../etc/cron.d/x", content: "x" }]), "zip_unsafe_path"],
    ["traversal inside the path", tarGzOf([good, { name: "a/../../x", content: "x" }]), "zip_unsafe_path"],
    ["an absolute path", tarGzOf([good, { name: "/etc/passwd", content: "x" }]), "zip_unsafe_path"],
    ["a backslash", tarGzOf([good, { name: "..\\x", content: "x" }]), "zip_unsafe_path"],
    ["a control character", tarGzOf([good, { name: "a\u0001b", content: "x" }]), "zip_unsafe_path"],
    ["a pax path that escapes", tarGzOf([good, paxEntry({ path: "../x" }), { name: "innocent", content: "x" }]), "zip_unsafe_path"],
    ["a symbolic link", tarGzOf([good, { name: "link", type: "2", linkname: "/etc/passwd" }]), "zip_symlink"],
    ["a hard link", tarGzOf([good, { name: "link", type: "1", linkname: "good.html" }]), "tar_hard_link"],
    ["a character device", tarGzOf([good, { name: "tty", type: "3" }]), "zip_special_file"],
    ["a FIFO", tarGzOf([good, { name: "fifo", type: "6" }]), "zip_special_file"],
    ["a duplicate", tarGzOf([good, { ...good, name: "./good.html" }]), "zip_duplicate_path"],
    ["a file that is also a folder", tarGzOf([good, { name: "good.html/x", content: "x" }]), "zip_duplicate_path"],
    ["a file over the largest file", tarGzOf([good, { name: "big", content: Buffer.alloc(MB + 1) }]), "file_too_large"],
    [
      "a header that claims too much",
      gzipSync(Buffer.concat([tarOf([good]).subarray(0, 1024), tarHeader({ name: "big", size: 5 * MB })])),
      "file_too_large",
    ],
    ["too many entries", tarGzOf(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, content: String(i) }))), "zip_too_many_entries"],
    [
      "more than the archive may unpack to",
      tarGzOf(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, content: Buffer.alloc(MB, i) }))),
      "zip_too_large",
    ],
    ["a bomb of zeros after the end marker", gzipSync(Buffer.concat([tarOf([good]), Buffer.alloc(8 * MB)])), "zip_too_large"],
    [
      "a compressed stream over the limit",
      gzipSync(Buffer.concat([tarOf([good]), Buffer.alloc(1)])),
      "file_too_large",
      { ...LIMITS, maxCompressedBytes: 50 },
    ],
    ["a damaged gzip stream", tarGzOf([good]).subarray(0, 40), "tar_invalid"],
    ["no gzip at all", tarOf([good]), "tar_invalid"],
    ["a damaged tar inside", gzipSync(Buffer.from("x".repeat(2048))), "tar_invalid"],
    ["no files", tarGzOf([{ name: "empty/", type: "5" }]), "zip_empty"],
  ];

  it.each(refused)("refuses %s and keeps nothing", async (_name, archive, code, limits) => {
    await expectUploadError(extract(archive, limits), code);
    expect(await filesUnder(sandbox.blobDir).then((files) => files.filter((f) => !f.startsWith("tmp")))).toEqual([]);
  });

  it("says quota_exceeded when the account's storage is the nearer bound", async () => {
    const limits = { ...LIMITS, quotaBytes: MB / 2, planStorageBytes: 500 * MB };
    const error = await expectUploadError(extract(tarGzOf([{ name: "a", content: Buffer.alloc(MB / 2 + 1) }]), limits), "quota_exceeded");
    expect(error.description).toContain("500 MB");
  });
});
