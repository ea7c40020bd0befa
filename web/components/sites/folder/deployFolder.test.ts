// The parts of a folder deploy that need no server: the digests (WebCrypto, as in the browser),
// the bound on what is read at once, the manifest a Files-tab drop sends, the one file per digest
// that is uploaded, and the tar body, read back by the server's own tar reader.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readTarEntries } from "../../../../server/uploads/tarReader";
import { FOLDER_TEXT } from "../../../../common/uploads";
import { DEPLOY_MAX_FILES } from "../../../../common/deploys";
import { deployFolder, filesToSend, mergeFolders, mergeManifest, tarOf } from "./deployFolder";
import { hashFiles, mapWithinBudget, type HashedFile } from "./hashFiles";
import { FolderProblem, type FolderFile } from "./readFolder";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const fileAt = (path: string, content: string | Uint8Array<ArrayBuffer>): FolderFile => ({ path, file: new File([content], path.split("/").pop()!) });

describe("hashing", () => {
  it("gives each file its SHA-256 and size, in order, and counts progress up to the whole", async () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const files = [fileAt("index.html", "<h1>hi</h1>"), fileAt("empty.txt", ""), fileAt("big.bin", big)];
    const seen: { files: number; bytes: number }[] = [];
    const hashed = await hashFiles(files, { onProgress: (done) => seen.push(done) });
    expect(hashed.map((f) => [f.path, f.sha256, f.size])).toEqual([
      ["index.html", sha256("<h1>hi</h1>"), 11],
      ["empty.txt", sha256(""), 0],
      ["big.bin", sha256(big), big.length],
    ]);
    expect(seen.at(-1)).toEqual({ files: 3, bytes: 11 + big.length });
    expect(seen.map((s) => s.files)).toEqual([1, 2, 3]);
  });

  it("says which file could not be read", async () => {
    const broken = { path: "docs/gone.html", file: { size: 3, arrayBuffer: () => Promise.reject(new Error("NotReadableError")) } as unknown as File };
    const error = await hashFiles([fileAt("a.html", "a"), broken]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FolderProblem);
    expect((error as FolderProblem).description).toBe(FOLDER_TEXT.unreadableDescription("docs/gone.html"));
  });

  it("holds at most the budget in bytes and the concurrency in number at once; a heavier item alone", async () => {
    const weights = [10, 10, 10, 60, 10, 100, 5, 5, 5, 5];
    let running = 0;
    let load = 0;
    const peaks = { running: 0, load: 0, aloneOverBudget: true };
    const results = await mapWithinBudget(weights, { concurrency: 3, budget: 50, weight: (w) => w }, async (w) => {
      running += 1;
      load += w;
      peaks.running = Math.max(peaks.running, running);
      if (w > 50 && running > 1) peaks.aloneOverBudget = false;
      if (w <= 50) peaks.load = Math.max(peaks.load, load);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      load -= w;
      return w * 2;
    });
    expect(results).toEqual(weights.map((w) => w * 2));
    expect(peaks).toEqual({ running: 3, load: 30, aloneOverBudget: true });
  });

  it("stops at an abort", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const run = mapWithinBudget([1, 2, 3, 4, 5], { concurrency: 1, budget: 10, weight: () => 1, signal: controller.signal }, async (n) => {
      started.push(n);
      if (n === 2) controller.abort();
      return n;
    });
    await expect(run).rejects.toMatchObject({ code: "aborted" });
    expect(started).toEqual([1, 2]);
  });
});

const hashedAt = (path: string, content: string): HashedFile => ({ ...fileAt(path, content), sha256: sha256(content), size: content.length });

describe("the manifest and the uploads", () => {
  it("keeps the site's files, replaces those the folder has too, and sorts by path", () => {
    const keep = [
      { path: "index.html", sha256: sha256("home"), size: 4 },
      { path: "docs/api/old.html", sha256: sha256("old"), size: 3 },
      { path: "docs/api/index.html", sha256: sha256("v1"), size: 2 },
    ];
    const merged = mergeManifest(keep, [hashedAt("docs/api/index.html", "v2!"), hashedAt("docs/api/new.css", "css")]);
    expect(merged).toEqual([
      { path: "docs/api/index.html", sha256: sha256("v2!"), size: 3 },
      { path: "docs/api/new.css", sha256: sha256("css"), size: 3 },
      { path: "docs/api/old.html", sha256: sha256("old"), size: 3 },
      { path: "index.html", sha256: sha256("home"), size: 4 },
    ]);
  });

  it("keeps the site's empty folders and the folder's, less those a file of the manifest now fills or stands at", () => {
    const manifest = [{ path: "docs/api/index.html" }, { path: "notes" }, { path: "index.html" }];
    expect(mergeFolders(["docs/api", "docs/old", "notes/inner", "images"], ["docs/api/empty", "images", "docs/api"], manifest)).toEqual([
      "docs/api/empty",
      "docs/old",
      "images",
    ]);
  });

  it("refuses, before the deploy opens, a folder that would take the site past the most files a deploy holds", async () => {
    const keep = Array.from({ length: DEPLOY_MAX_FILES }, (_, i) => ({ path: `p/${i}.html`, sha256: sha256(String(i)), size: 1 }));
    const phases: string[] = [];
    const error = await deployFolder({
      siteId: "site",
      files: [fileAt("new.html", "new")],
      keep: async () => ({ files: keep, folders: [] }),
      message: "Uploaded folder x",
      signal: new AbortController().signal,
      onPhase: (phase) => phases.push(phase.kind),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FolderProblem);
    expect((error as FolderProblem).title).toBe(FOLDER_TEXT.tooManyTitle);
    expect(phases).toEqual(["hashing", "hashing"]);
  });

  it("sends each missing digest once, and nothing the server holds", () => {
    const files = [hashedAt("a.html", "same"), hashedAt("b/a.html", "same"), hashedAt("c.html", "held"), hashedAt("d.html", "new")];
    expect(filesToSend(files, [sha256("same"), sha256("new")]).map((f) => f.path)).toEqual(["a.html", "d.html"]);
    expect(filesToSend(files, [])).toEqual([]);
  });

  it("packs a batch into a tar the server reads back: digests as names, the files' bytes", async () => {
    const files = [hashedAt("a.html", "<p>a</p>"), hashedAt("empty", ""), hashedAt("block", "x".repeat(512)), hashedAt("odd", "y".repeat(513))];
    const tar = new Uint8Array(await tarOf(files).arrayBuffer());
    expect(tar.length % 512).toBe(0);
    const read: [string, string][] = [];
    for await (const entry of readTarEntries(Readable.from([Buffer.from(tar)]))) {
      expect(entry.type).toBe("file");
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      read.push([entry.name, Buffer.concat(chunks).toString()]);
    }
    expect(read).toEqual(
      files.map((f) => [
        f.sha256,
        f.path === "a.html" ? "<p>a</p>" : f.path === "empty" ? "" : f.path === "block" ? "x".repeat(512) : "y".repeat(513),
      ]),
    );
  });
});
