import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, DRIVERS, type TestDatabase } from "../../test/support";
import { consumeRateLimit } from "./rateLimits";

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
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect((await consumeRateLimit(database.db, "berth:other", rule, t0 + 10_000)).allowed).toBe(true);
    expect((await consumeRateLimit(database.db, "berth:k", rule, t0 + 60_000)).allowed).toBe(true);
  });

  it("counts concurrent requests exactly", async () => {
    const rule = { window: 60, max: 5 };
    const results = await Promise.all(Array.from({ length: 12 }, () => consumeRateLimit(database.db, "berth:burst", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});
