import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./lock";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "berth-lock-"));

describe("lockDataDir", () => {
  it("refuses a second holder while the first one lives, naming it", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    try {
      writeFileSync(path.join(dir, "berth.lock"), String(child.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(`pid ${child.pid}`);
    } finally {
      child.kill();
    }
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "0"]);
    await new Promise((resolve) => child.on("exit", resolve));
    writeFileSync(path.join(dir, "berth.lock"), String(child.pid));
    const release = lockDataDir(dir);
    release();
    expect(existsSync(path.join(dir, "berth.lock"))).toBe(false);
  });

  it("can be taken again after release", () => {
    const dir = tempDir();
    lockDataDir(dir)();
    lockDataDir(dir)();
  });
});
