import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "../env";
import { getTestServer, type TestServer } from "../test/support";
import { BACKUP_DIR, BACKUP_RETRY_MS, dailyBackupTask, KEEP_DAILY_BACKUPS, runDailyBackup, type WriteArchive } from "./daily";
import { verifyBackup } from "./verifyBackup";

const day = (n: number, time = "03:00:00") => new Date(`2026-03-${String(n).padStart(2, "0")}T${time}Z`);

describe("the daily backup", () => {
  let server: TestServer;
  let dir: string;
  const written: string[] = [];
  /** Stands in for the archive writer: the schedule and the rotation are what is under test here. */
  const fakeWrite: WriteArchive = async (_ctx, file) => {
    written.push(path.basename(file));
    writeFileSync(file, "archive");
  };

  beforeAll(async () => {
    server = await getTestServer("pglite");
    dir = path.join(server.ctx.env.dataDir, BACKUP_DIR);
  });
  afterAll(() => server.close());

  it("is on unless the operator sets BERTH_BACKUP_DAILY=false", () => {
    const base = { BERTH_DATA_DIR: server.ctx.env.dataDir, BERTH_APP_URL: "http://localhost:8080" };
    expect(loadEnv(base, []).backupDaily).toBe(true);
    expect(loadEnv({ ...base, BERTH_BACKUP_DAILY: "false" }, []).backupDaily).toBe(false);
  });

  it("writes a real, verifiable archive into $BERTH_DATA_DIR/backups, in a folder only its owner can read", async () => {
    const file = await runDailyBackup(server.ctx, day(1));
    expect(file).toBe(path.join(dir, "berth-2026-03-01.tar.gz"));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect((await verifyBackup(file!)).database.kind).toBe("pglite");
  });

  it("runs once a UTC day however often it is asked, also after a restart, and keeps the newest seven", async () => {
    // The same day again, later and from a "restarted" task: the file is the schedule.
    expect(await runDailyBackup(server.ctx, day(1, "23:59:59"), fakeWrite)).toBeUndefined();
    await dailyBackupTask(server.ctx, { write: fakeWrite })(day(1, "12:00:00"));
    expect(written).toEqual([]);

    for (let n = 2; n <= 10; n++) {
      await runDailyBackup(server.ctx, day(n, "00:00:30"), fakeWrite);
      await runDailyBackup(server.ctx, day(n, "18:00:00"), fakeWrite);
    }
    expect(written).toHaveLength(9);
    const kept = readdirSync(dir)
      .filter((n) => n.endsWith(".tar.gz"))
      .sort();
    expect(kept).toHaveLength(KEEP_DAILY_BACKUPS);
    expect(kept[0]).toBe("berth-2026-03-04.tar.gz");
    expect(kept.at(-1)).toBe("berth-2026-03-10.tar.gz");
  });

  it("removes what an interrupted run left and leaves other files alone", async () => {
    writeFileSync(path.join(dir, ".berth-2026-03-11.tar.gz.1a2b3c4d.partial"), "half");
    writeFileSync(path.join(dir, "my-own-copy.tar.gz"), "mine");
    await runDailyBackup(server.ctx, day(11), fakeWrite);
    const names = readdirSync(dir);
    expect(names).not.toContain(".berth-2026-03-11.tar.gz.1a2b3c4d.partial");
    expect(names).toContain("my-own-copy.tar.gz");
    expect(names).toContain("berth-2026-03-11.tar.gz");
  });

  it("rests an hour after a failure instead of retrying every minute", async () => {
    let attempts = 0;
    const task = dailyBackupTask(server.ctx, {
      write: async () => {
        attempts += 1;
        throw new Error("disk full");
      },
    });
    await expect(task(day(12, "01:00:00"))).rejects.toThrow("disk full");
    await task(day(12, "01:01:00"));
    expect(attempts).toBe(1);
    await expect(task(new Date(day(12, "01:00:00").getTime() + BACKUP_RETRY_MS))).rejects.toThrow("disk full");
    expect(attempts).toBe(2);
    expect(existsSync(path.join(dir, "berth-2026-03-12.tar.gz"))).toBe(false);
  });

  it("abandons a backup under way when the worker stops, leaving no file, so the next start makes it", async () => {
    const stopping = new AbortController();
    const task = dailyBackupTask(server.ctx, { signal: stopping.signal });
    const running = task(day(13));
    setTimeout(() => stopping.abort(), 5);
    await running;
    expect(readdirSync(dir).filter((n) => n.includes("2026-03-13"))).toEqual([]);
    expect(await runDailyBackup(server.ctx, day(13))).toBe(path.join(dir, "berth-2026-03-13.tar.gz"));
  });
});
