// The operator's API as guest, normal user, banned user, the target themself and admin, on both
// databases: listing, plans, bans (the edge stops serving at once), reset e-mails and deletion.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { registerBlobs } from "../../db/repositories/blobs";
import { buildUser, signedInClient, type BuiltUser } from "../../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart } from "../../test/sites";
import {
  accounts,
  availableSubdomains,
  blobVariants,
  blobs,
  deploymentFiles,
  deployments,
  profiles,
  sessions,
  siteFiles,
  sites,
  users,
} from "../../db/schema";
import { storageUsedByUser } from "../../db/repositories/usage";
import { purgeDeletedSites } from "../../services/purgeDeletedSites";
import { ADMIN_PAGE_SIZE, type AdminStorageResponse, type AdminUser } from "../../../common/admin";

const ROOT_EMAIL = "root@berth.test";
const sha256Of = (content: string) => createHash("sha256").update(content).digest("hex");
const NOT_FOUND = { error: { code: "not_found", message: "Not found" } };

describe.each(DRIVERS)("admin API (%s)", (driver) => {
  let server: TestServer;
  let root: TestClient;
  let rootUser: BuiltUser;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_ADMIN_EMAILS: `other-admin@berth.test, ${ROOT_EMAIL.toUpperCase()}` } });
    ({ client: root, user: rootUser } = await signedInClient(server, { email: ROOT_EMAIL, name: "Root Operator" }));
  });
  afterAll(() => server.close());

  const planOf = async (userId: string) =>
    (await server.ctx.db.select({ plan: profiles.plan }).from(profiles).where(eq(profiles.id, userId)))[0]?.plan;

  /** A user promoted by the root admin, signed in. */
  async function promotedAdmin(): Promise<{ client: TestClient; user: BuiltUser }> {
    const admin = await signedInClient(server);
    expect((await root.patch(`/api/admin/users/${admin.user.id}`, { isAdmin: true })).statusCode).toBe(200);
    return admin;
  }

  /** Every admin route, aimed at `targetId`. */
  const everyRoute = (client: TestClient, targetId: string) => [
    () => client.get("/api/admin/users"),
    () => client.get(`/api/admin/users?search=${encodeURIComponent(ROOT_EMAIL)}`),
    () => client.get("/api/admin/storage"),
    () => client.patch(`/api/admin/users/${targetId}`, { plan: "pro" }),
    () => client.patch(`/api/admin/users/${targetId}`, { isAdmin: true }),
    () => client.post(`/api/admin/users/${targetId}/password-reset`),
    () => client.delete(`/api/admin/users/${targetId}`),
  ];

  async function expectHidden(client: TestClient, target: BuiltUser) {
    const unknownRoute = await client.get("/api/no-such-route");
    expect(unknownRoute.statusCode).toBe(404);
    for (const call of everyRoute(client, target.id)) {
      const response = await call();
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknownRoute.json());
      expect(response.json()).toEqual(NOT_FOUND);
    }
    // Nothing happened to the target.
    expect(await planOf(target.id)).toBe("free");
    expect(server.outbox.messagesTo(target.email).filter((m) => /Reset your Berth password/.test(m.subject))).toHaveLength(0);
    expect(await server.ctx.db.select().from(users).where(eq(users.id, target.id))).toHaveLength(1);
  }

  it("answers a guest with the same 404 as an unknown route, and changes nothing", async () => {
    const target = await buildUser(server);
    await expectHidden(server.client(), target);
  });

  it("answers a normal user with the same 404, also about themself and about another user", async () => {
    const { client, user } = await signedInClient(server);
    const other = await buildUser(server);
    await expectHidden(client, other);
    await expectHidden(client, user);
  });

  it("answers a banned admin with the same 404, even after signing in again", async () => {
    const { client, user } = await promotedAdmin();
    expect((await client.get("/api/admin/users")).statusCode).toBe(200);
    const ban = await root.patch(`/api/admin/users/${user.id}`, { banned: true });
    expect(ban.statusCode).toBe(200);
    expect(ban.json()).toMatchObject({ isAdmin: true, bannedAt: expect.any(String) });
    const target = await buildUser(server);
    await expectHidden(client, target);
    // Whatever the sign-in answers for a banned user, it never opens the admin API.
    await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
    await expectHidden(client, target);
  });

  describe("GET /api/admin/users", () => {
    it("lists users newest first with plan, storage as the quota counts it, sites, status and admin flags", async () => {
      const { client, user } = await signedInClient(server, { name: "Storage Person" });
      const first = await createSiteWith(client, htmlFile("<h1>first site</h1>"));
      // A second version adds a file; the first file, shared by both versions, counts once.
      await postMultipart(client, `/api/sites/${first.id}/files`, {}, { name: "style.css", content: "body { color: red }", type: "text/css" });
      const second = await createSiteWith(client, htmlFile("<h1>second site, soon deleted</h1>"));
      expect((await client.delete(`/api/sites/${second.id}`)).statusCode).toBe(200);

      const quota = (await client.get("/api/stats")).json().storage_used as number;
      expect(quota).toBe("<h1>first site</h1>".length + "body { color: red }".length + "<h1>second site, soon deleted</h1>".length);
      expect(quota).toBe(await storageUsedByUser(server.ctx.db, user.id));

      const list = await root.get(`/api/admin/users?search=${encodeURIComponent(user.email)}`);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual({
        users: [
          {
            id: user.id,
            email: user.email,
            name: "Storage Person",
            emailVerified: true,
            plan: "free",
            isAdmin: false,
            adminByConfig: false,
            bannedAt: null,
            storageBytes: quota,
            // A site marked for deletion still counts until it is purged, like its storage.
            siteCount: 2,
            createdAt: expect.any(String),
          },
        ],
        total: 1,
        page: 1,
        pageSize: ADMIN_PAGE_SIZE,
      });

      // Purged 14 days later: the site no longer counts, nor do its bytes.
      await purgeDeletedSites(server.ctx, new Date(Date.now() + 15 * 24 * 60 * 60 * 1000));
      const after = (await root.get(`/api/admin/users?search=${encodeURIComponent(user.email)}`)).json().users[0] as AdminUser;
      expect(after.siteCount).toBe(1);
      expect(after.storageBytes).toBe(await storageUsedByUser(server.ctx.db, user.id));
      expect(after.storageBytes).toBe("<h1>first site</h1>".length + "body { color: red }".length);

      const me = (await root.get(`/api/admin/users?search=${ROOT_EMAIL}`)).json().users[0] as AdminUser;
      expect(me).toMatchObject({ email: ROOT_EMAIL, isAdmin: true, adminByConfig: true, bannedAt: null, siteCount: 0, storageBytes: 0 });
    });

    it("searches e-mail and name without case, takes % and _ literally, and pages by 50", async () => {
      const tag = `pager${Date.now().toString(36)}`;
      const base = Date.now() - 1000 * 60 * 60;
      const rows = Array.from({ length: ADMIN_PAGE_SIZE + 5 }, (_, i) => ({
        id: `${tag}-${i}`,
        name: `Paged ${tag.toUpperCase()} ${i}`,
        email: `p${i}.${tag}@example.com`,
        emailVerified: true,
        createdAt: new Date(base + i * 1000),
        updatedAt: new Date(base + i * 1000),
      }));
      await server.ctx.db.insert(users).values(rows);
      await server.ctx.db.insert(profiles).values(rows.map((r) => ({ id: r.id, full_name: r.name })));

      const page1 = (await root.get(`/api/admin/users?search=${tag}`)).json();
      expect(page1.total).toBe(ADMIN_PAGE_SIZE + 5);
      expect(page1.users).toHaveLength(ADMIN_PAGE_SIZE);
      expect(page1.users[0].email).toBe(`p${ADMIN_PAGE_SIZE + 4}.${tag}@example.com`);
      const page2 = (await root.get(`/api/admin/users?search=${tag}&page=2`)).json();
      expect(page2).toMatchObject({ total: ADMIN_PAGE_SIZE + 5, page: 2, pageSize: ADMIN_PAGE_SIZE });
      expect(page2.users.map((u: AdminUser) => u.email)).toEqual([4, 3, 2, 1, 0].map((i) => `p${i}.${tag}@example.com`));
      expect((await root.get(`/api/admin/users?search=${tag}&page=3`)).json()).toMatchObject({ users: [], total: ADMIN_PAGE_SIZE + 5 });

      // The name, in another case; the e-mail, in another case.
      const byName = (await root.get(`/api/admin/users?search=${encodeURIComponent(`paged ${tag} 7`)}`)).json();
      expect(byName.users.map((u: AdminUser) => u.id)).toEqual([`${tag}-7`]);
      const byEmail = (await root.get(`/api/admin/users?search=${encodeURIComponent(`P12.${tag.toUpperCase()}@`)}`)).json();
      expect(byEmail.users.map((u: AdminUser) => u.id)).toEqual([`${tag}-12`]);
      // Wildcards are characters to find, not patterns.
      expect((await root.get(`/api/admin/users?search=${encodeURIComponent(`p_.${tag}`)}`)).json().total).toBe(0);
      expect((await root.get(`/api/admin/users?search=${encodeURIComponent(`%${tag}`)}`)).json().total).toBe(0);
      expect((await root.get("/api/admin/users?search=nobody-has-this-name")).json()).toMatchObject({ users: [], total: 0 });
    });

    it("refuses a page that is not a positive whole number", async () => {
      for (const page of ["0", "-1", "1.5", "two"]) {
        const response = await root.get(`/api/admin/users?page=${page}`);
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe("invalid_request");
      }
    });
  });

  describe("GET /api/admin/storage", () => {
    it("reports the disk the blobs take, compressed copies included, beside the sum of quotas", async () => {
      // What earlier tests published is compressed first, so the difference is this page's.
      await server.compressor.kick();
      const before = (await root.get("/api/admin/storage")).json<AdminStorageResponse>();
      const page = "<p>Berth hosts this page.</p>\n".repeat(200);
      const { client, user } = await signedInClient(server);
      await createSiteWith(client, htmlFile(page));
      await server.compressor.kick();
      const forms = await server.ctx.db
        .select()
        .from(blobVariants)
        .where(eq(blobVariants.sha256, sha256Of(page)));
      const variantBytes = forms.reduce((sum, form) => sum + (form.size ?? 0), 0);
      // The page compresses well: both forms are kept, and no quota counts them.
      expect(forms.filter((form) => form.variant_sha256 !== null)).toHaveLength(2);
      expect(await storageUsedByUser(server.ctx.db, user.id)).toBe(page.length);

      const after = await root.get("/api/admin/storage");
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual({
        diskBytes: before.diskBytes + page.length + variantBytes,
        variantBytes: before.variantBytes + variantBytes,
        quotaBytes: before.quotaBytes + page.length,
      });
    });
  });

  describe("PATCH /api/admin/users/:id", () => {
    it("sets the plan, and the new plan's limits apply to the user", async () => {
      const target = await buildUser(server);
      const pro = await root.patch(`/api/admin/users/${target.id}`, { plan: "pro" });
      expect(pro.statusCode).toBe(200);
      expect(pro.json()).toMatchObject({ id: target.id, email: target.email, plan: "pro", bannedAt: null, isAdmin: false });
      expect(await planOf(target.id)).toBe("pro");
      expect((await root.patch(`/api/admin/users/${target.id}`, { plan: "free" })).json().plan).toBe("free");
      expect(await planOf(target.id)).toBe("free");
    });

    it("refuses a bad body and an unknown user", async () => {
      const target = await buildUser(server);
      for (const body of [{}, { plan: "gold" }, { banned: "yes" }, { isAdmin: 1 }]) {
        const response = await root.patch(`/api/admin/users/${target.id}`, body);
        expect(response.statusCode).toBe(400);
      }
      expect((await root.patch(`/api/admin/users/${target.id}`, {})).json().error.message).toBe("Nothing to change");
      const unknown = await root.patch("/api/admin/users/no-such-user", { plan: "pro" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe("user_not_found");
      expect(await planOf(target.id)).toBe("free");
    });

    it("promotes and demotes; a promoted admin can use the admin API until demoted", async () => {
      const { client, user } = await signedInClient(server);
      expect((await client.get("/api/admin/users")).statusCode).toBe(404);
      const promoted = await root.patch(`/api/admin/users/${user.id}`, { isAdmin: true });
      expect(promoted.json()).toMatchObject({ isAdmin: true, adminByConfig: false });
      expect((await client.get("/api/admin/users")).statusCode).toBe(200);
      const demoted = await root.patch(`/api/admin/users/${user.id}`, { isAdmin: false });
      expect(demoted.json()).toMatchObject({ isAdmin: false });
      expect((await client.get("/api/admin/users")).statusCode).toBe(404);
    });

    it("refuses to let an admin ban or demote themself, or a config admin, and changes nothing", async () => {
      const { client: admin, user: adminUser } = await promotedAdmin();
      const cases: [TestClient, string, object, RegExp][] = [
        [admin, adminUser.id, { banned: true }, /cannot ban yourself/],
        [admin, adminUser.id, { isAdmin: false }, /cannot remove your own admin rights/],
        [admin, adminUser.id, { plan: "pro", banned: true }, /cannot ban yourself/],
        [root, rootUser.id, { banned: true }, /cannot ban yourself/],
        [admin, rootUser.id, { banned: true }, /BERTH_ADMIN_EMAILS/],
        [admin, rootUser.id, { isAdmin: false, plan: "pro" }, /BERTH_ADMIN_EMAILS/],
      ];
      for (const [client, id, body, message] of cases) {
        const response = await client.patch(`/api/admin/users/${id}`, body);
        expect(response.statusCode).toBe(409);
        expect(response.json().error.message).toMatch(message);
      }
      expect(await planOf(adminUser.id)).toBe("free");
      expect(await planOf(rootUser.id)).toBe("free");
      const [adminProfile] = await server.ctx.db.select().from(profiles).where(eq(profiles.id, adminUser.id));
      expect(adminProfile).toMatchObject({ is_admin: true, banned_at: null });
      expect((await admin.get("/api/admin/users")).statusCode).toBe(200);
      // An admin may change their own plan.
      expect((await admin.patch(`/api/admin/users/${adminUser.id}`, { plan: "pro" })).json().plan).toBe("pro");
    });

    it("bans: signs the user out everywhere, and the edge stops serving their sites at once; unban serves them again", async () => {
      const { client: owner, user } = await signedInClient(server);
      const secondBrowser = server.client();
      expect((await secondBrowser.post("/api/auth/sign-in/email", { email: user.email, password: user.password })).statusCode).toBe(200);
      const site = await createSiteWith(owner, htmlFile("<h1>owner's page</h1>"));
      const { client: bystander } = await signedInClient(server);
      const other = await createSiteWith(bystander, htmlFile("<h1>someone else</h1>"));
      const host = hostOf(site.url);
      const versionHost = `${site.subdomain}--v1.localhost:8080`;
      // The live host is cached before the ban; the version host is looked up only after it.
      expect((await server.edge.get(host, "/")).text).toBe("<h1>owner's page</h1>");

      const banned = await root.patch(`/api/admin/users/${user.id}`, { banned: true });
      expect(banned.statusCode).toBe(200);
      const bannedAt = banned.json().bannedAt as string;
      expect(Date.parse(bannedAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(await server.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      expect((await owner.get("/api/sites")).statusCode).toBe(401);
      expect((await secondBrowser.get("/api/sites")).statusCode).toBe(401);

      expect((await server.edge.get(host, "/")).status).toBe(404);
      expect((await server.edge.get(versionHost, "/")).status).toBe(404);
      expect((await server.edge.get(hostOf(other.url), "/")).text).toBe("<h1>someone else</h1>");
      const listed = (await root.get(`/api/admin/users?search=${encodeURIComponent(user.email)}`)).json().users[0];
      expect(listed.bannedAt).toBe(bannedAt);
      // Banning again keeps the first time.
      expect((await root.patch(`/api/admin/users/${user.id}`, { banned: true })).json().bannedAt).toBe(bannedAt);

      const unbanned = await root.patch(`/api/admin/users/${user.id}`, { banned: false });
      expect(unbanned.json().bannedAt).toBeNull();
      expect((await server.edge.get(host, "/")).text).toBe("<h1>owner's page</h1>");
      expect((await server.edge.get(versionHost, "/")).text).toBe("<h1>owner's page</h1>");
      expect((await secondBrowser.post("/api/auth/sign-in/email", { email: user.email, password: user.password })).statusCode).toBe(200);
      expect((await secondBrowser.get("/api/sites")).statusCode).toBe(200);
    });
  });

  describe("POST /api/admin/users/:id/password-reset", () => {
    it("e-mails the user better-auth's reset link, which lands on the update-password page", async () => {
      const target = await buildUser(server);
      const response = await root.post(`/api/admin/users/${target.id}/password-reset`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
      const link = server.outbox.lastLink(target.email, /Reset your Berth password/);
      const open = await server.client().get(new URL(link).pathname + new URL(link).search);
      expect(open.statusCode).toBe(302);
      expect(String(open.headers.location)).toMatch(/^http:\/\/localhost:8080\/auth\/update-password\?token=/);
      const token = new URL(String(open.headers.location)).searchParams.get("token")!;
      expect((await server.client().post("/api/auth/reset-password", { newPassword: "set by a reset link", token })).statusCode).toBe(200);
      expect((await server.client().post("/api/auth/sign-in/email", { email: target.email, password: "set by a reset link" })).statusCode).toBe(200);
    });

    it("also sends one to the admin themself, and answers 404 for an unknown user without mail", async () => {
      const before = server.outbox.messages().length;
      expect((await root.post("/api/admin/users/no-such-user/password-reset")).statusCode).toBe(404);
      expect(server.outbox.messages()).toHaveLength(before);
      expect((await root.post(`/api/admin/users/${rootUser.id}/password-reset`)).statusCode).toBe(204);
      expect(server.outbox.lastLink(ROOT_EMAIL, /Reset your Berth password/)).toMatch(/reset-password/);
    });
  });

  describe("DELETE /api/admin/users/:id", () => {
    // As the avatar service stores a picture: the bytes, and their row in blobs.
    const putBlob = async (content: string) => {
      const stored = await server.ctx.blobs.put(Readable.from([Buffer.from(content)]), { maxBytes: 1 << 20 });
      await registerBlobs(server.ctx.db, [{ sha256: stored.sha256, size: stored.size }]);
      return stored.sha256;
    };

    it("deletes the user and all their data; shared blobs and other users' sites stay", async () => {
      const { client: owner, user } = await signedInClient(server);
      const { client: neighbour, user: neighbourUser } = await signedInClient(server);
      const shared = "<h1>the same bytes in two accounts</h1>";
      const unique = `<p>${"only the deleted user has this paragraph. ".repeat(200)}</p>`;
      const kept = await createSiteWith(neighbour, htmlFile(shared));
      const gone = await createSiteWith(owner, htmlFile(shared));
      await postMultipart(owner, `/api/sites/${gone.id}/files`, {}, htmlFile(unique, "unique.html"));
      const deletedSite = await createSiteWith(owner, htmlFile("<p>marked for deletion</p>"));
      await owner.delete(`/api/sites/${deletedSite.id}`);
      const reserved = (await owner.post("/api/subdomains/reserve", {})).json().subdomain as string;
      await server.compressor.kick();

      const [sharedSha, uniqueSha, deletedSha] = [shared, unique, "<p>marked for deletion</p>"].map(sha256Of) as [string, string, string];
      const variants = (await server.ctx.db.select().from(blobVariants).where(eq(blobVariants.sha256, uniqueSha)))
        .map((v) => v.variant_sha256!)
        .filter(Boolean);
      expect(variants.length).toBeGreaterThan(0);
      // Avatars are blobs too: the user's own goes, a neighbour's avatar that happens to be the
      // same bytes as one of the user's files stays.
      const avatarSha = await putBlob("owner's avatar bytes");
      await server.ctx.db.update(profiles).set({ avatar_sha256: avatarSha, avatar_type: "image/png" }).where(eq(profiles.id, user.id));
      const neighbourAvatar = await putBlob("<p>marked for deletion</p>");
      expect(neighbourAvatar).toBe(deletedSha);
      await server.ctx.db.update(profiles).set({ avatar_sha256: neighbourAvatar, avatar_type: "image/png" }).where(eq(profiles.id, neighbourUser.id));

      expect((await server.edge.get(hostOf(gone.url), "/")).text).toBe(shared);
      const ownedSiteIds = [gone.id, deletedSite.id];
      const deploymentIds = (
        await server.ctx.db.select({ id: deployments.id }).from(deployments).where(inArray(deployments.site_id, ownedSiteIds))
      ).map((d) => d.id);
      expect(deploymentIds.length).toBeGreaterThanOrEqual(3);

      const response = await root.delete(`/api/admin/users/${user.id}`);
      expect(response.statusCode).toBe(204);

      const db = server.ctx.db;
      expect(await db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
      expect(await db.select().from(profiles).where(eq(profiles.id, user.id))).toEqual([]);
      expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
      expect(await db.select().from(accounts).where(eq(accounts.userId, user.id))).toEqual([]);
      expect(await db.select().from(sites).where(eq(sites.user_id, user.id))).toEqual([]);
      expect(await db.select().from(deployments).where(inArray(deployments.site_id, ownedSiteIds))).toEqual([]);
      expect(await db.select().from(deploymentFiles).where(inArray(deploymentFiles.deployment_id, deploymentIds))).toEqual([]);
      expect(await db.select().from(siteFiles).where(inArray(siteFiles.site_id, ownedSiteIds))).toEqual([]);
      expect((await owner.get("/api/sites")).statusCode).toBe(401);
      // Their subdomains, and the one they had reserved, are back in the pool.
      const names = await db
        .select()
        .from(availableSubdomains)
        .where(inArray(availableSubdomains.subdomain, [gone.subdomain, deletedSite.subdomain, reserved]));
      expect(names).toHaveLength(3);
      for (const name of names) expect(name).toMatchObject({ is_assigned: false, assigned_site_id: null, reserved_by: null });

      // Bytes nothing else uses are gone; shared ones stay.
      for (const sha of [uniqueSha, ...variants, avatarSha]) {
        expect(await server.ctx.blobs.stat(sha)).toBeUndefined();
        expect(await db.select().from(blobs).where(eq(blobs.sha256, sha))).toEqual([]);
      }
      expect(await server.ctx.blobs.stat(sharedSha)).toBeDefined();
      expect(await db.select().from(blobs).where(eq(blobs.sha256, sharedSha))).toHaveLength(1);
      expect(await server.ctx.blobs.stat(neighbourAvatar)).toBeDefined();

      expect((await server.edge.get(hostOf(gone.url), "/")).status).toBe(404);
      const neighbourPage = await server.edge.get(hostOf(kept.url), "/");
      expect(neighbourPage.status).toBe(200);
      expect(neighbourPage.text).toBe(shared);
      expect((await neighbour.get(`/api/sites/${kept.id}`)).statusCode).toBe(200);
      expect((await root.get(`/api/admin/users?search=${encodeURIComponent(user.email)}`)).json().total).toBe(0);
    });

    it("refuses to delete the admin themself or a config admin, and 404s for an unknown user", async () => {
      const { client: admin, user: adminUser } = await promotedAdmin();
      const self = await admin.delete(`/api/admin/users/${adminUser.id}`);
      expect(self.statusCode).toBe(409);
      expect(self.json().error.code).toBe("cannot_change_self");
      const rootSelf = await root.delete(`/api/admin/users/${rootUser.id}`);
      expect(rootSelf.statusCode).toBe(409);
      const configAdmin = await admin.delete(`/api/admin/users/${rootUser.id}`);
      expect(configAdmin.statusCode).toBe(409);
      expect(configAdmin.json().error.message).toMatch(/BERTH_ADMIN_EMAILS/);
      expect((await root.delete("/api/admin/users/no-such-user")).statusCode).toBe(404);
      expect(
        await server.ctx.db
          .select()
          .from(users)
          .where(inArray(users.id, [adminUser.id, rootUser.id])),
      ).toHaveLength(2);
      expect((await admin.get("/api/admin/users")).statusCode).toBe(200);
    });
  });
});
