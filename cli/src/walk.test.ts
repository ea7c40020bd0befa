// Which files of a folder a deploy takes: dot-files out (but .well-known at the top), berth.json
// and .berthignore out, .berthignore's patterns, links only inside the folder; and their digests.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashFiles, mapLimit, walkFolder } from "./walk";

const root = mkdtempSync(path.join(os.tmpdir(), "berth-cli-walk-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

const paths = async (dir: string) => (await walkFolder(dir)).files.map((f) => f.path);

describe("the folder walk", () => {
  it("leaves out dot-files and dot-folders, berth.json and .berthignore; keeps .well-known at the top, _redirects and _headers", async () => {
    const dir = tree("dots", {
      "index.html": "<h1>hi</h1>",
      _redirects: "/a /b",
      _headers: "/*\n  X-A: b",
      ".env": "SECRET=1",
      ".git/config": "[core]",
      ".DS_Store": "junk",
      "css/.hidden.css": "x",
      "css/site.css": "body{}",
      ".well-known/security.txt": "Contact: x",
      "docs/.well-known/nope.txt": "x",
      "berth.json": "{}",
      "docs/berth.json": "{}",
      ".berthignore": "",
    });
    expect(await paths(dir)).toEqual([".well-known/security.txt", "_headers", "_redirects", "css/site.css", "docs/berth.json", "index.html"]);
  });

  it("gives the folders that hold nothing once dot-names are left out, as the dashboard's drop does", async () => {
    const dir = tree("empties", { "index.html": "x", "docs/guide.html": "g", "docs/drafts/.keep": "", ".cache/x": "y", "build/a.js": "a" });
    for (const empty of ["images", "docs/empty/deeper", ".git/refs", "build/empty"]) mkdirSync(path.join(dir, empty), { recursive: true });
    writeFileSync(path.join(dir, ".berthignore"), "build/\n");
    const walked = await walkFolder(dir);
    // docs/empty holds a folder, so only its innermost counts; ignored and dot-folders are not walked.
    expect(walked.folders).toEqual(["docs/drafts", "docs/empty/deeper", "images"]);
    expect(walked.files.map((f) => f.path)).toEqual(["docs/guide.html", "index.html"]);
  });

  it("honours .berthignore: files, folders, negation", async () => {
    const dir = tree("ignored", {
      ".berthignore": "# drafts stay home\n*.psd\ndrafts/\nlogs/*\n!logs/keep.log\n/README.md\n",
      "index.html": "x",
      "art/cover.psd": "x",
      "art/cover.png": "x",
      "drafts/post.html": "x",
      "blog/drafts/other.html": "x",
      "logs/drop.log": "x",
      "logs/keep.log": "x",
      "README.md": "x",
      "docs/README.md": "x",
    });
    expect(await paths(dir)).toEqual(["art/cover.png", "docs/README.md", "index.html", "logs/keep.log"]);
  });

  it("follows links inside the folder, skips (and says so) links to outside or to nothing", async () => {
    const outside = tree("outside", { id_rsa: "PRIVATE KEY" });
    const dir = tree("links", { "index.html": "x", "assets/logo.svg": "<svg/>" });
    symlinkSync(path.join(outside, "id_rsa"), path.join(dir, "key.txt"));
    symlinkSync(outside, path.join(dir, "elsewhere"));
    symlinkSync(path.join(dir, "assets/logo.svg"), path.join(dir, "logo.svg"));
    symlinkSync(path.join(dir, "missing"), path.join(dir, "dangling"));
    // A link back up the tree is walked once, not for ever.
    symlinkSync(dir, path.join(dir, "assets/loop"));
    const walked = await walkFolder(dir);
    expect(walked.files.map((f) => f.path)).toEqual(["assets/logo.svg", "index.html", "logo.svg"]);
    expect(walked.warnings.sort()).toEqual([
      "skipped dangling: a link to nothing",
      "skipped elsewhere: a link to outside the folder",
      "skipped key.txt: a link to outside the folder",
    ]);
  });

  it("refuses what is not a folder", async () => {
    const dir = tree("file", { "a.txt": "x" });
    await expect(walkFolder(path.join(dir, "a.txt"))).rejects.toThrow("is not a folder");
    await expect(walkFolder(path.join(dir, "nope"))).rejects.toThrow("is not a folder");
  });
});

describe("hashing", () => {
  it("gives each file's SHA-256 and size, read as a stream", async () => {
    const big = "x".repeat(3 * 1024 * 1024 + 17);
    const dir = tree("hashes", { "a.txt": "hello", empty: "", "big.bin": big });
    const hashed = await hashFiles((await walkFolder(dir)).files);
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    expect(hashed.map(({ path: p, sha256, size }) => ({ p, sha256, size }))).toEqual([
      { p: "a.txt", sha256: sha("hello"), size: 5 },
      { p: "big.bin", sha256: sha(big), size: big.length },
      { p: "empty", sha256: sha(""), size: 0 },
    ]);
  });

  it("runs at most `limit` tasks at once, keeping the results in order", async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimit([5, 1, 4, 2, 3], 2, async (ms) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return ms * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });
});
