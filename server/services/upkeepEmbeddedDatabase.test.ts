// The embedded database's autovacuum: tables are analyzed once they have data and once enough of
// them changed, vacuumed once enough rows are dead, and left alone otherwise; a PostgreSQL
// server's own autovacuum is left to do its work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { rowsOf } from "../db/rows";
import { createTestDatabase, DRIVERS, type TestDatabase } from "../test/support";
import { upkeepEmbeddedDatabase } from "./upkeepEmbeddedDatabase";

const log = pino({ level: "silent" });

describe.each(DRIVERS)("database upkeep (%s)", (driver) => {
  let database: TestDatabase;
  const ctx = () => ({ db: database.db, log });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await database.db.execute(sql`create table upkeep_probe (id int primary key, body text not null)`);
    await database.db.execute(sql`insert into upkeep_probe select n, 'row ' || n from generate_series(1, 500) n`);
    // Statistics reach pg_stat_user_tables at most once a second unless asked.
    await database.db.execute(sql`select pg_stat_force_next_flush()`);
  });
  afterAll(() => database.destroy());

  const probe = async () =>
    rowsOf<{ reltuples: number; analyzed: boolean; vacuumed: boolean }>(
      await database.db.execute(sql`
        select c.reltuples::float8 as reltuples, s.last_analyze is not null as analyzed, s.last_vacuum is not null as vacuumed
        from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'upkeep_probe'`),
    )[0]!;

  if (driver === "pglite") {
    it("analyzes a table the planner knows nothing of, then leaves it until enough of it changes", async () => {
      expect((await probe()).reltuples).toBe(-1);
      expect(await upkeepEmbeddedDatabase(ctx())).toContain("upkeep_probe");
      expect(await probe()).toEqual({ reltuples: 500, analyzed: true, vacuumed: false });
      await database.db.execute(sql`select pg_stat_force_next_flush()`);
      expect(await upkeepEmbeddedDatabase(ctx())).not.toContain("upkeep_probe");
      // 40 changed rows of 500: under 50 + 10 %.
      await database.db.execute(sql`update upkeep_probe set body = body || '!' where id <= 40`);
      await database.db.execute(sql`select pg_stat_force_next_flush()`);
      expect(await upkeepEmbeddedDatabase(ctx())).not.toContain("upkeep_probe");
    });

    it("vacuums it once many rows are dead, analyzing it again", async () => {
      await database.db.execute(sql`delete from upkeep_probe where id > 200`);
      await database.db.execute(sql`select pg_stat_force_next_flush()`);
      expect(await upkeepEmbeddedDatabase(ctx())).toContain("upkeep_probe");
      expect(await probe()).toEqual({ reltuples: 200, analyzed: true, vacuumed: true });
    });
  } else {
    it("does nothing: the server's autovacuum does it", async () => {
      expect(await upkeepEmbeddedDatabase(ctx())).toEqual([]);
    });
  }
});
