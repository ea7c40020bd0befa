import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, DRIVERS, type TestDatabase } from "../../test/support";
import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import { consumeRateLimit, giveBackRateLimit, pruneRateLimits, RATE_LIMIT_KEEP_MS } from "./rateLimits";

describe.each(DRIVERS)("consumeRateLimit (%s)", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(() => database.destroy());

  it("allows max requests per window, then refuses until the window ends", async () => {
    const rule = { window: 60, max: 3 };
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect((await consumeRateLimit(database.db, "berth:k", rule, t0 + i)).allowed).toBe(true);
    const refused = await consumeRateLimit(database.db, "berth:k", rule, t0 + 10_000);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 50, windowStartedAt: t0 });
    expect((await consumeRateLimit(database.db, "berth:other", rule, t0 + 10_000)).allowed).toBe(true);
    expect((await consumeRateLimit(database.db, "berth:k", rule, t0 + 60_000)).allowed).toBe(true);
  });

  it("counts concurrent requests exactly", async () => {
    const rule = { window: 60, max: 5 };
    const results = await Promise.all(Array.from({ length: 12 }, () => consumeRateLimit(database.db, "berth:burst", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("gives a request back within its own window only", async () => {
    const rule = { window: 60, max: 2 };
    const t0 = 2_000_000;
    const first = await consumeRateLimit(database.db, "berth:give", rule, t0);
    expect(first.windowStartedAt).toBe(t0);
    await consumeRateLimit(database.db, "berth:give", rule, t0 + 1);
    await giveBackRateLimit(database.db, "berth:give", first.windowStartedAt);
    expect((await consumeRateLimit(database.db, "berth:give", rule, t0 + 2)).allowed).toBe(true);
    expect((await consumeRateLimit(database.db, "berth:give", rule, t0 + 3)).allowed).toBe(false);
    // A new window began: giving back a request of the old one changes nothing.
    const next = await consumeRateLimit(database.db, "berth:give", rule, t0 + 60_000);
    expect(next.windowStartedAt).toBe(t0 + 60_000);
    await giveBackRateLimit(database.db, "berth:give", first.windowStartedAt);
    expect((await consumeRateLimit(database.db, "berth:give", rule, t0 + 60_001)).allowed).toBe(true);
    expect((await consumeRateLimit(database.db, "berth:give", rule, t0 + 60_002)).allowed).toBe(false);
  });

  it("prunes counters older than a day, whoever wrote them, and keeps the rest", async () => {
    const now = 5_000_000_000;
    const rule = { window: 60 * 60, max: 5 };
    await consumeRateLimit(database.db, "berth:old", rule, now - RATE_LIMIT_KEEP_MS - 1);
    await consumeRateLimit(database.db, "berth:recent", rule, now - RATE_LIMIT_KEEP_MS + 1000);
    await database.db.execute(
      sql`insert into rate_limits (id, key, count, last_request) values ('ba', '127.0.0.1/sign-in/email', 3, ${now - 2 * RATE_LIMIT_KEEP_MS})`,
    );
    expect(await pruneRateLimits(database.db, now)).toBeGreaterThanOrEqual(2);
    const keys = rowsOf<{ key: string }>(
      await database.db.execute(sql`select key from rate_limits where key in ('berth:old', 'berth:recent', '127.0.0.1/sign-in/email')`),
    );
    expect(keys.map((k) => k.key)).toEqual(["berth:recent"]);
  });
});
