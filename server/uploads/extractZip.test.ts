// Archives that should unpack, and how they unpack: nesting, the single top folder, empty folders,
// junk, names, and the per-file and total limits. Refused archives are in extractZip.attacks.test.ts.
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractZip, type ExtractedArchive } from "./extractZip";
import type { ZipExtractLimits } from "./limits";
import { CREATOR, UNIX_MODE, writeZip, type ZipEntrySpec } from "../test/uploads/zipBuilder";
import { createSandbox, expectUploadError, filesUnder, expectClosed, readAll, sha256, type Sandbox } from "../test/uploads/sandbox";

const MB = 1024 * 1024;
const LIMITS: ZipExtractLimits = { maxEntries: 100, maxTotalBytes: 10 * MB, maxFileBytes: 1 * MB };

let sandbox: Sandbox;
let zipPath: string;
beforeEach(async () => {
  sandbox = await createSandbox();
  zipPath = path.join(sandbox.root, "upload.zip");
});
afterEach(async () => {
  await sandbox.cleanup();
});

async function extract(entries: ZipEntrySpec[], limits: ZipExtractLimits = LIMITS): Promise<ExtractedArchive> {
  await writeZip(zipPath, entries);
  const result = await extractZip(zipPath, sandbox.store, limits);
  await expectClosed(zipPath);
  return result;
}

const paths = (result: ExtractedArchive) => result.files.map((file) => file.path);

describe("extractZip", () => {
  it("unpacks a site with nested folders into blobs", async () => {
    const html = "<!doctype html><title>Hi</title>";
    const css = "body { color: red }\n".repeat(500);
    const result = await extract([
      { name: "index.html", data: html },
      { name: "css/", mode: UNIX_MODE.directory },
      { name: "css/site.css", data: css, method: "deflate" },
      { name: "js/app/main.js", data: "console.log(1)", method: "deflate", mode: UNIX_MODE.file },
      { name: "img/logo.png", data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) },
    ]);
    expect(result.files).toEqual([
      { path: "index.html", sha256: sha256(html), size: html.length, created: true },
      { path: "css/site.css", sha256: sha256(css), size: css.length, created: true },
      { path: "js/app/main.js", sha256: sha256("console.log(1)"), size: 14, created: true },
      expect.objectContaining({ path: "img/logo.png", size: 8 }),
    ]);
    expect(result.folders).toEqual(["css", "img", "js", "js/app"]);
    expect((await readAll(await sandbox.store.get(sha256(css)))).toString()).toBe(css);
    await expectClosed(zipPath);
  });

  it("strips a single top-level folder", async () => {
    const result = await extract([
      { name: "my-site/", mode: UNIX_MODE.directory },
      { name: "my-site/index.html", data: "home" },
      { name: "my-site/css/a.css", data: "a{}" },
      { name: "my-site/empty/", mode: UNIX_MODE.directory },
    ]);
    expect(paths(result)).toEqual(["index.html", "css/a.css"]);
    expect(result.folders).toEqual(["css", "empty"]);
  });

  it("strips only one level", async () => {
    const result = await extract([{ name: "outer/inner/index.html", data: "x" }]);
    expect(paths(result)).toEqual(["inner/index.html"]);
    expect(result.folders).toEqual(["inner"]);
  });

  it("does not strip when a file sits at the root", async () => {
    const result = await extract([
      { name: "my-site/index.html", data: "home" },
      { name: "README.txt", data: "read me" },
    ]);
    expect(paths(result)).toEqual(["my-site/index.html", "README.txt"]);
    expect(result.folders).toEqual(["my-site"]);
  });

  it("does not strip when an empty folder sits beside the top folder", async () => {
    const result = await extract([
      { name: "my-site/index.html", data: "home" },
      { name: "assets/", mode: UNIX_MODE.directory },
    ]);
    expect(paths(result)).toEqual(["my-site/index.html"]);
    expect(result.folders).toEqual(["assets", "my-site"]);
  });

  it("keeps empty folders, including nested ones", async () => {
    const result = await extract([{ name: "index.html", data: "home" }, { name: "a/b/c/", mode: UNIX_MODE.directory }, { name: "uploads/" }]);
    expect(paths(result)).toEqual(["index.html"]);
    expect(result.folders).toEqual(["a", "a/b", "a/b/c", "uploads"]);
  });

  it("recognises folders marked only with the MS-DOS attribute", async () => {
    const result = await extract([
      { name: "index.html", data: "home", creator: CREATOR.dos },
      { name: "docs", creator: CREATOR.dos, externalAttributes: 0x10 },
    ]);
    expect(paths(result)).toEqual(["index.html"]);
    expect(result.folders).toEqual(["docs"]);
  });

  it("skips __MACOSX and .DS_Store silently, then strips the top folder", async () => {
    const result = await extract([
      { name: "site/index.html", data: "home" },
      { name: "site/.DS_Store", data: "finder" },
      { name: "site/css/.DS_Store", data: "finder" },
      { name: "site/css/a.css", data: "a{}" },
      { name: "__MACOSX/", mode: UNIX_MODE.directory },
      { name: "__MACOSX/site/._index.html", data: "resource fork" },
      { name: ".DS_Store", data: "finder" },
    ]);
    expect(paths(result)).toEqual(["index.html", "css/a.css"]);
    expect(result.folders).toEqual(["css"]);
    expect(await filesUnder(sandbox.blobDir)).toHaveLength(2);
  });

  it("reads UTF-8 names and normalizes them to NFC", async () => {
    const result = await extract([
      { name: "cafe\u0301/menu.html", data: "decomposed" },
      { name: "日本語.html", data: "ja" },
    ]);
    expect(paths(result)).toEqual(["caf\u00e9/menu.html", "日本語.html"]);
  });

  it("reads legacy CP437 names", async () => {
    // 0x82 is "é" in code page 437; without the UTF-8 flag the name is CP437.
    const result = await extract([{ name: Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x68, 0x74, 0x6d, 0x6c]), data: "x" }]);
    expect(paths(result)).toEqual(["caf\u00e9.html"]);
  });

  it("stores identical files once and reports which blobs it created", async () => {
    const existing = await sandbox.store.put(Readable.from([Buffer.from("shared")]), { maxBytes: MB });
    const result = await extract([
      { name: "a.html", data: "same" },
      { name: "b.html", data: "same" },
      { name: "c.html", data: "shared" },
    ]);
    expect(result.files.map((file) => file.created)).toEqual([true, false, false]);
    expect(result.files[2]!.sha256).toBe(existing.sha256);
    expect(await filesUnder(sandbox.blobDir)).toHaveLength(2);
  });

  it("keeps empty files", async () => {
    const result = await extract([{ name: "empty.txt" }, { name: "index.html", data: "x", method: "deflate" }]);
    expect(result.files[0]).toEqual({ path: "empty.txt", sha256: sha256(""), size: 0, created: true });
  });

  it("accepts a file of exactly the per-file limit and refuses one byte more", async () => {
    const exact = await extract([{ name: "big.bin", data: Buffer.alloc(MB, 1), method: "deflate" }]);
    expect(exact.files[0]!.size).toBe(MB);

    await writeZip(zipPath, [
      { name: "ok.html", data: "fine" },
      { name: "big.bin", data: Buffer.alloc(MB + 1, 2), method: "deflate" },
    ]);
    const before = await filesUnder(sandbox.blobDir);
    const error = await expectUploadError(extractZip(zipPath, sandbox.store, LIMITS), "file_too_large");
    expect(error.description).toBe("Maximum file size is 1MB (big.bin is larger)");
    expect(await filesUnder(sandbox.blobDir)).toEqual(before);
  });

  it("counts the total across entries", async () => {
    const limits = { ...LIMITS, maxTotalBytes: 2 * MB };
    const files = [1, 2, 3].map((n) => ({ name: `f${n}.bin`, data: Buffer.alloc(0.75 * MB, n), method: "deflate" as const }));
    await writeZip(zipPath, files.slice(0, 2));
    expect((await extractZip(zipPath, sandbox.store, limits)).files).toHaveLength(2);

    await writeZip(zipPath, files);
    const before = await filesUnder(sandbox.blobDir);
    const error = await expectUploadError(extractZip(zipPath, sandbox.store, limits), "zip_too_large");
    expect(error.description).toBe("The archive unpacks to more than 2MB");
    expect(await filesUnder(sandbox.blobDir)).toEqual(before);
  });

  it("says quota_exceeded when the account's remaining storage is the tighter bound", async () => {
    await writeZip(zipPath, [
      { name: "a.bin", data: Buffer.alloc(600 * 1024, 1) },
      { name: "b.bin", data: Buffer.alloc(600 * 1024, 2) },
    ]);
    await expectUploadError(extractZip(zipPath, sandbox.store, { ...LIMITS, quotaBytes: MB }), "quota_exceeded");
    expect(await filesUnder(sandbox.blobDir)).toEqual([]);
    const result = await extractZip(zipPath, sandbox.store, { ...LIMITS, quotaBytes: 1.2 * MB });
    expect(result.files).toHaveLength(2);
  });

  it("accepts exactly maxEntries entries", async () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.txt`, data: `${i}` }));
    const result = await extract(entries, { ...LIMITS, maxEntries: 20 });
    expect(result.files).toHaveLength(20);
  });
});
