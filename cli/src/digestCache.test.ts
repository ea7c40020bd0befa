// The digests remembered between deploys: trusted only for a file that is as it was when it was
// hashed and was not changed close to that moment; otherwise the file is read again.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digestCachePath, RACY_MS, readDigestCache, trustedDigest, writeDigestCache, type CachedDigest } from "./digestCache";
import { hashFiles, walkFolder } from "./walk";

const root = mkdtempSync(path.join(os.tmpdir(), "berth-cli-digests-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const stampOf = (file: string) => {
  const info = statSync(file);
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino };
};

describe("the digest cache", () => {
  it("vouches for a file whose size, times and inode are unchanged since well after its last change", () => {
    const file = path.join(root, "a.html");
    writeFileSync(file, "<h1>a</h1>");
    const stamp = stampOf(file);
    const cached: CachedDigest = { ...stamp, sha256: sha("<h1>a</h1>"), hashedAt: Math.max(stamp.mtimeMs, stamp.ctimeMs) + RACY_MS + 1 };
    expect(trustedDigest(cached, stamp)).toBe(cached.sha256);
    expect(trustedDigest(undefined, stamp)).toBeUndefined();
    for (const change of [{ size: stamp.size + 1 }, { mtimeMs: stamp.mtimeMs + 1 }, { ctimeMs: stamp.ctimeMs + 1 }, { ino: stamp.ino + 1 }]) {
      expect(trustedDigest(cached, { ...stamp, ...change })).toBeUndefined();
    }
    // Changed within RACY_MS of the hashing: a write in the same clock tick would not show.
    expect(trustedDigest({ ...cached, hashedAt: Math.max(stamp.mtimeMs, stamp.ctimeMs) + RACY_MS - 1 }, stamp)).toBeUndefined();
  });

  it("lets a deploy skip reading the files it vouches for, and reads the others", async () => {
    const dir = path.join(root, "site");
    mkdirSync(dir);
    const files = { "old.html": "old", "new.html": "new", "racy.html": "racy" };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const walked = await walkFolder(dir);
    const stamp = (name: string) => walked.files.find((f) => f.path === name)!.stamp!;
    const later = Date.now() + RACY_MS + 1000;
    // Made-up digests: one that comes back was taken from the cache, not read.
    const cache = new Map<string, CachedDigest>([
      ["old.html", { ...stamp("old.html"), sha256: "1".repeat(64), hashedAt: later }],
      ["racy.html", { ...stamp("racy.html"), sha256: "2".repeat(64), hashedAt: stamp("racy.html").ctimeMs + RACY_MS - 1 }],
    ]);
    const before = Date.now();
    const hashed = await hashFiles(walked.files, undefined, cache);
    const find = (name: string) => hashed.find((f) => f.path === name)!;
    expect(find("old.html")).toMatchObject({ sha256: "1".repeat(64), hashedAt: later });
    expect(find("new.html").sha256).toBe(sha("new"));
    expect(find("new.html").hashedAt).toBeGreaterThanOrEqual(before);
    expect(find("racy.html").sha256).toBe(sha("racy"));
  });

  it("is written owner-only and read back; a damaged or foreign file is ignored", () => {
    const file = digestCachePath({ HOME: root }, "/some/folder");
    expect(file.startsWith(path.join(root, ".cache", "berth", "digests"))).toBe(true);
    expect(digestCachePath({ HOME: root, XDG_CACHE_HOME: "/xdg" }, "/some/folder").startsWith("/xdg/berth/digests/")).toBe(true);
    expect(digestCachePath({ HOME: root }, "/other/folder")).not.toBe(file);
    const entry: CachedDigest = { size: 3, mtimeMs: 1.5, ctimeMs: 2.25, ino: 7, sha256: "a".repeat(64), hashedAt: 10 };
    writeDigestCache(file, new Map([["x/y.html", entry]]));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readDigestCache(file)).toEqual(new Map([["x/y.html", entry]]));
    writeFileSync(file, readFileSync(file, "utf8").slice(0, 20));
    expect(readDigestCache(file).size).toBe(0);
    writeFileSync(file, JSON.stringify({ version: 99, files: { "x/y.html": ["a".repeat(64), 3, 1, 2, 7, 10] } }));
    expect(readDigestCache(file).size).toBe(0);
    writeFileSync(
      file,
      JSON.stringify({ version: 1, files: { "x/y.html": ["not a digest", 3, 1, 2, 7, 10], "z.html": ["b".repeat(64), 3, 1, 2, 7, 10] } }),
    );
    expect([...readDigestCache(file).keys()]).toEqual(["z.html"]);
    expect(readDigestCache(path.join(root, "missing.json")).size).toBe(0);
  });
});
