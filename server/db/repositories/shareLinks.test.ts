// The open counter is the one place two browsers can race for the last view: it must count only
// while the link is open, in one statement, and log exactly the opens it counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { ownerWithSite } from "../../test/factories";
import { shareLinkOpens, shareLinks } from "../schema";
import { countShareLinkOpen, insertShareLink } from "./shareLinks";
import { deleteSiteRow } from "./sites";

describe.each(DRIVERS)("countShareLinkOpen (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  async function link(values: { expires_at?: Date | null; max_views?: number | null; revoked_at?: Date | null } = {}) {
    const { site, user } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<p>x</p>" }]);
    const row = await insertShareLink(server.ctx.db, {
      site_id: site.id,
      user_id: user.id,
      name: "L",
      expires_at: values.expires_at ?? null,
      password_hash: null,
      max_views: values.max_views ?? null,
    });
    if (values.revoked_at) await server.ctx.db.update(shareLinks).set({ revoked_at: values.revoked_at }).where(eq(shareLinks.id, row.id));
    return row;
  }
  const count = (siteId: string, linkId: string, at = new Date()) =>
    countShareLinkOpen(server.ctx.db, siteId, linkId, { at, userAgent: "UA", country: null });
  const open = async (siteId: string, linkId: string, at = new Date()) => (await count(siteId, linkId, at)).counted;
  const state = async (linkId: string) => ({
    views: (await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, linkId)))[0]?.views,
    logged: (await server.ctx.db.select().from(shareLinkOpens).where(eq(shareLinkOpens.link_id, linkId))).length,
  });

  it("counts concurrent opens up to max views exactly, and logs each counted one", async () => {
    const row = await link({ max_views: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => open(row.site_id, row.id)));
    expect(results.filter(Boolean)).toHaveLength(3);
    expect(await state(row.id)).toEqual({ views: 3, logged: 3 });
  });

  it("says which open used the link up: exactly one, even when they race", async () => {
    const row = await link({ max_views: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => count(row.site_id, row.id)));
    expect(results.filter((r) => r.counted && r.usedUp)).toHaveLength(1);
    expect(results.filter((r) => r.counted && !r.usedUp)).toHaveLength(2);
    const unlimited = await link();
    expect(await count(unlimited.site_id, unlimited.id)).toEqual({ counted: true, usedUp: false });
  });

  it("counts nothing for a revoked or expired link, or for another site", async () => {
    const revoked = await link({ revoked_at: new Date() });
    const expired = await link({ expires_at: new Date(Date.now() + 60_000) });
    const other = await link();
    expect(await open(revoked.site_id, revoked.id)).toBe(false);
    expect(await open(expired.site_id, expired.id, new Date(Date.now() + 120_000))).toBe(false);
    expect(await open(revoked.site_id, other.id)).toBe(false);
    for (const row of [revoked, expired, other]) expect(await state(row.id)).toEqual({ views: 0, logged: 0 });
    expect(await open(expired.site_id, expired.id)).toBe(true);
  });

  it("goes with its site when the site is purged, access log included", async () => {
    const row = await link();
    expect(await open(row.site_id, row.id)).toBe(true);
    await server.ctx.db.transaction((tx) => deleteSiteRow(tx, row.site_id));
    expect(await state(row.id)).toEqual({ views: undefined, logged: 0 });
  });
});
