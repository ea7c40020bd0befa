import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, DRIVERS, type TestDatabase } from "../test/support";
import { availableSubdomains, users } from "../db/schema";
import { countAvailableSubdomains } from "../db/repositories/subdomains";
import {
  ensureSubdomainPool,
  POOL_LOW_WATER,
  POOL_REFILL,
  releaseStaleSubdomainReservations,
  reserveSubdomain,
  RESERVATION_TTL_MS,
} from "./subdomainPool";
import { isIssuableSubdomain } from "./subdomainNames";

describe.each(DRIVERS)("the subdomain pool (%s)", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await database.db.insert(users).values(Array.from({ length: 70 }, (_, i) => ({ id: `u${i}`, name: `U${i}`, email: `u${i}@example.com` })));
  });
  afterAll(() => database.destroy());

  it("fills with 100 names when empty, and refills by 100 only below 40", async () => {
    expect(await ensureSubdomainPool(database.db)).toBe(POOL_REFILL);
    expect(await ensureSubdomainPool(database.db)).toBe(0);
    const names = (await database.db.select().from(availableSubdomains)).map((r) => r.subdomain);
    expect(names.every(isIssuableSubdomain)).toBe(true);

    // 60 claims leave 40: no refill yet; the 61st leaves 39 and triggers one.
    for (let i = 0; i < 60; i++) await reserveSubdomain(database.db, `u${i}`);
    expect(await countAvailableSubdomains(database.db)).toBe(POOL_LOW_WATER);
    await reserveSubdomain(database.db, "u60");
    expect(await countAvailableSubdomains(database.db)).toBe(POOL_LOW_WATER - 1 + POOL_REFILL);
  });

  it("gives concurrent claims different names", async () => {
    const claimed = await Promise.all(Array.from({ length: 9 }, (_, i) => reserveSubdomain(database.db, `u${61 + i}`)));
    expect(new Set(claimed).size).toBe(9);
  });

  it("returns reservations nobody used to the pool", async () => {
    const before = await countAvailableSubdomains(database.db);
    const later = new Date(Date.now() + RESERVATION_TTL_MS + 60_000);
    expect(await releaseStaleSubdomainReservations(database.db, later)).toBe(70);
    expect(await countAvailableSubdomains(database.db)).toBe(before + 70);
  });
});
