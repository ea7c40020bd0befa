import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tightenDataDir } from "./tightenDataDir";

const modeOf = (entry: string) => lstatSync(entry).mode & 0o7777;

describe("tightenDataDir", () => {
  let scratch: string;
  let dataDir: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "berth-tighten-"));
    dataDir = path.join(scratch, "data");
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** A tree as an older Berth left it under umask 000/022: directories 0777/0755, files 0666/0644. */
  function looseTree(): string[] {
    const dirs = [
      dataDir,
      path.join(dataDir, "db"),
      path.join(dataDir, "db", "base"),
      path.join(dataDir, "blobs", "ab", "cd"),
      path.join(dataDir, "outbox"),
    ];
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    const files = [
      path.join(dataDir, "db", "base", "1259"),
      path.join(dataDir, "blobs", "ab", "cd", "abcd"),
      path.join(dataDir, "outbox", "reset.eml"),
    ];
    for (const file of files) writeFileSync(file, "x");
    for (const [index, entry] of [...dirs, path.join(dataDir, "blobs"), path.join(dataDir, "blobs", "ab")].entries())
      chmodSync(entry, index % 2 ? 0o755 : 0o777);
    for (const [index, file] of files.entries()) chmodSync(file, index % 2 ? 0o644 : 0o666);
    return [...dirs, path.join(dataDir, "blobs"), path.join(dataDir, "blobs", "ab"), ...files];
  }

  it("takes group and other bits off every directory and file, and counts them", () => {
    const entries = looseTree();
    writeFileSync(path.join(dataDir, "secret"), "s", { mode: 0o600 });
    chmodSync(path.join(dataDir, "secret"), 0o600);

    expect(tightenDataDir(dataDir)).toEqual({ changed: entries.length, failed: [] });
    for (const entry of entries) {
      expect(modeOf(entry), entry).toBe(statSync(entry).isDirectory() ? 0o700 : 0o600);
    }
    expect(modeOf(path.join(dataDir, "secret"))).toBe(0o600);
  });

  it("changes nothing, and says so, when everything is already owner-only", () => {
    looseTree();
    tightenDataDir(dataDir);
    expect(tightenDataDir(dataDir)).toEqual({ changed: 0, failed: [] });
  });

  it("keeps the owner's bits and special bits as they were", () => {
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, "read-only"), "x");
    chmodSync(path.join(dataDir, "read-only"), 0o444);
    mkdirSync(path.join(dataDir, "sticky"));
    chmodSync(path.join(dataDir, "sticky"), 0o1777);
    chmodSync(dataDir, 0o2775);

    expect(tightenDataDir(dataDir).changed).toBe(3);
    expect(modeOf(path.join(dataDir, "read-only"))).toBe(0o400);
    expect(modeOf(path.join(dataDir, "sticky"))).toBe(0o1700);
    expect(modeOf(dataDir)).toBe(0o2700);
  });

  it("follows no symbolic link inside: what a link points at keeps its mode", () => {
    looseTree();
    const outside = path.join(scratch, "outside");
    mkdirSync(outside);
    writeFileSync(path.join(outside, "file"), "x");
    chmodSync(outside, 0o755);
    chmodSync(path.join(outside, "file"), 0o644);
    symlinkSync(path.join(outside, "file"), path.join(dataDir, "link-to-file"));
    symlinkSync(outside, path.join(dataDir, "link-to-dir"));

    tightenDataDir(dataDir);
    expect(modeOf(outside)).toBe(0o755);
    expect(modeOf(path.join(outside, "file"))).toBe(0o644);
  });

  // Only root can make a directory another account owns; CI runs as root.
  it.runIf(process.getuid?.() === 0)("does not enter a directory another account owns, whose entries it could swap for links", () => {
    looseTree();
    const theirs = path.join(dataDir, "theirs");
    mkdirSync(theirs);
    writeFileSync(path.join(theirs, "file"), "x");
    chmodSync(path.join(theirs, "file"), 0o666);
    chownSync(theirs, 65534, 65534);

    const result = tightenDataDir(dataDir);
    expect(result.failed).toEqual([{ path: theirs, code: "another account's directory, not entered" }]);
    expect(modeOf(path.join(theirs, "file"))).toBe(0o666);
    expect(modeOf(path.join(dataDir, "outbox", "reset.eml"))).toBe(0o600);
  });

  it("follows the data directory itself when it is a link, as an operator may set it up", () => {
    const real = path.join(scratch, "real");
    mkdirSync(path.join(real, "outbox"), { recursive: true });
    chmodSync(real, 0o755);
    chmodSync(path.join(real, "outbox"), 0o755);
    symlinkSync(real, dataDir);

    expect(tightenDataDir(dataDir).changed).toBe(2);
    expect(modeOf(real)).toBe(0o700);
    expect(modeOf(path.join(real, "outbox"))).toBe(0o700);
  });

  it("leaves sockets alone and does nothing for a directory that does not exist yet", async () => {
    mkdirSync(dataDir, { mode: 0o700 });
    const socketPath = path.join(dataDir, "admin.sock");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      chmodSync(socketPath, 0o777);
      expect(tightenDataDir(dataDir)).toEqual({ changed: 0, failed: [] });
      expect(modeOf(socketPath)).toBe(0o777);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(tightenDataDir(path.join(scratch, "missing"))).toEqual({ changed: 0, failed: [] });
  });
});
