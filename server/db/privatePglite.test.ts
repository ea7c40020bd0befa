// The embedded database's files are owner-only even under umask 022: PGlite sets modes itself
// (0666 for the database it unpacks, 0644 for Postgres's relation-cache files), which the umask
// alone never narrows.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { openPrivatePglite } from "./privatePglite";

/** Every entry under `root` (itself included) whose mode has a group or other bit, as "0644 path". */
function looseEntries(root: string): string[] {
  const loose: string[] = [];
  const visit = (entry: string) => {
    const info = lstatSync(entry);
    if ((info.mode & 0o077) !== 0) loose.push(`${(info.mode & 0o777).toString(8).padStart(4, "0")} ${path.relative(root, entry) || "."}`);
    if (info.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return loose;
}

function countEntries(root: string): number {
  const info = lstatSync(root);
  return 1 + (info.isDirectory() ? readdirSync(root).reduce((sum, name) => sum + countEntries(path.join(root, name)), 0) : 0);
}

// Each test creates a whole database (initdb), which takes PGlite tens of seconds on a busy machine.
const CREATES_A_DATABASE = 120_000;

describe("the embedded database's files", () => {
  let scratch: string;
  let umask: number;
  beforeAll(() => {
    // The usual umask, which leaves what is created with default modes readable by everyone.
    umask = process.umask(0o022);
    scratch = mkdtempSync(path.join(os.tmpdir(), "berth-pglite-modes-"));
  });
  afterAll(() => {
    process.umask(umask);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("are owner-only when the database is created, migrated, written and opened again", { timeout: CREATES_A_DATABASE }, async () => {
    const dir = path.join(scratch, "data", "db");
    const first = await openDatabase({ pgliteDir: dir });
    await first.migrate();
    await first.db.execute("create table modes_probe (id int primary key)");
    await first.db.execute("insert into modes_probe values (1)");
    await first.close();
    // Opening again rewrites the relation-cache files (pg_internal.init), with 0644 by default.
    const second = await openDatabase({ pgliteDir: dir });
    await second.db.execute("insert into modes_probe values (2)");
    await second.close();

    expect(countEntries(dir)).toBeGreaterThan(900);
    expect(looseEntries(path.join(scratch, "data"))).toEqual([]);
  });

  it("are owner-only when the database is loaded from a dump, as a restore does", { timeout: CREATES_A_DATABASE }, async () => {
    const source = await openPrivatePglite(path.join(scratch, "source"));
    await source.exec("create table restored (id int); insert into restored values (7)");
    const dump = await source.dumpDataDir("none");
    await source.close();

    const dir = path.join(scratch, "restored");
    const restored = await openPrivatePglite(dir, { loadDataDir: dump });
    expect((await restored.query<{ id: number }>("select id from restored")).rows).toEqual([{ id: 7 }]);
    await restored.close();
    expect(countEntries(dir)).toBeGreaterThan(900);
    expect(looseEntries(dir)).toEqual([]);
  });
});
