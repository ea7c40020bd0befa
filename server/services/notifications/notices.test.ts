// Each event that puts a notice in the owner's feed, through the real paths that cause it: a
// publish through the API, a share link opened at the edge, uploads crossing storage thresholds,
// the worker finding an expiring site and pruning old notices, the admin changing a plan. Mail is
// checked on a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { FREE_PLAN } from "../../plans/builtIn";
import type { ShareLinkResponse } from "../../../common/shareLinks";
import type { SiteResponse } from "../../../common/sites";
import { deployments, notifications, sites, users } from "../../db/schema";
import { runWorkerTick } from "../../jobs/worker";
import { feedOf, noticesOf } from "../../test/notifications";
import { setPlan, signedInClient, type BuiltUser } from "../../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../../test/sites";
import { SmtpReceiver } from "../../test/smtpReceiver";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { notify } from "./notify";

const BAD_REDIRECTS = { name: "_redirects", content: "/a /b 301\n/c /d 303\n", type: "text/plain" };
const ADMIN_EMAIL = "operator@notices.test";
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DRIVERS)("notices from events (%s)", (driver) => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    server = await getTestServer(driver, { env: { BERTH_SMTP_URL: smtp.url, BERTH_ADMIN_EMAILS: ADMIN_EMAIL } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const mailsTo = (user: BuiltUser) => smtp.to(user.email).filter((mail) => !/Confirm your e-mail/.test(mail.subject));

  describe("deployments", () => {
    it("tells the owner of each version that went live, and of a failure once, with one failure mail", async () => {
      const { client, user } = await signedInClient(server);
      const site = await createSiteWith(client, htmlFile(), "Compiler Docs");
      await server.notices.settled();
      const [live] = await noticesOf(client, "deploy_succeeded");
      expect(live).toMatchObject({
        title: "Version 1 of Compiler Docs is live",
        link: `/dashboard/sites/${site.id}?tab=deployments`,
        site_id: site.id,
        read_at: null,
      });

      const failed = await postMultipart(client, `/api/sites/${site.id}/files`, {}, BAD_REDIRECTS);
      expect(failed.json().deployment).toMatchObject({ status: "failed", version: 2 });
      await server.notices.settled();
      const failures = await noticesOf(client, "deploy_failed");
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ title: "Deployment of Compiler Docs failed", site_id: site.id });
      expect(failures[0]!.body).toMatch(/^Version 2 could not be published: _redirects line 2: unknown status "303"/);
      // The failure mail is the one it always was, sent once; a success mails nothing by default.
      await expect.poll(() => mailsTo(user).map((m) => m.subject)).toEqual(["Deployment of Compiler Docs failed"]);
      expect(mailsTo(user)[0]!.text).toContain("Version 2 of your site Compiler Docs could not be published");
    });

    it("leaves an event relayed from another node to that node", async () => {
      const { client, user } = await signedInClient(server);
      const site = await createSiteWith(client, htmlFile(), "Elsewhere");
      await server.notices.settled();
      const before = (await feedOf(client)).length;
      const [row] = await server.ctx.db.select().from(deployments).where(eq(deployments.site_id, site.id));
      server.ctx.events.relay("deployment", {
        userId: user.id,
        siteId: site.id,
        subdomain: site.subdomain,
        deployment: { ...row!, status: "failed" },
      });
      await server.notices.settled();
      expect(await feedOf(client)).toHaveLength(before);
    });
  });

  describe("publish checks", () => {
    it("counts a check's result as no new deploy", async () => {
      const { client, user } = await signedInClient(server);
      const site = await createSiteWith(client, htmlFile(), "Checked");
      await server.notices.settled();
      const before = await noticesOf(client, "deploy_succeeded");
      expect(before).toHaveLength(1);
      const [row] = await server.ctx.db.select().from(deployments).where(eq(deployments.site_id, site.id));
      // What the worker emits once a version's check is stored.
      server.ctx.events.emit("deployment", {
        userId: user.id,
        siteId: site.id,
        subdomain: site.subdomain,
        deployment: row!,
        check: { status: "done", problem_count: 0, counts: {} },
      });
      await server.notices.settled();
      expect(await noticesOf(client, "deploy_succeeded")).toHaveLength(1);
    });
  });

  describe("share links", () => {
    it("tells the owner once, when an open spends the link's last view", async () => {
      const { client, user } = await signedInClient(server);
      await setPlan(server, user.id, "pro");
      const site = await createSiteWith(client, htmlFile(), "Portfolio");
      const created = await client.post(`/api/sites/${site.id}/share-links`, { name: "Client preview", maxViews: 2 });
      expect(created.statusCode, created.body).toBe(201);
      const link = created.json<ShareLinkResponse>();
      const host = new URL(site.url).host;
      const path = new URL(link.url).pathname;

      expect((await server.edge.get(host, path)).status).toBe(303);
      await server.notices.settled();
      expect(await noticesOf(client, "share_link_used_up")).toEqual([]);
      expect((await server.edge.get(host, path)).status).toBe(303);
      await server.notices.settled();
      expect((await server.edge.get(host, path)).status).toBe(410);
      await server.notices.settled();
      const used = await noticesOf(client, "share_link_used_up");
      expect(used).toHaveLength(1);
      expect(used[0]).toMatchObject({
        title: 'Share link "Client preview" of Portfolio is used up',
        link: `/dashboard/sites/${site.id}?tab=sharing`,
        site_id: site.id,
      });
      expect(used[0]!.body).toContain("opened 2 views");
    });
  });

  describe("storage", () => {
    const limit = FREE_PLAN.storageBytes;
    /** Sets the stored total as if the account held `bytes` (the upload triggers add to it from there). */
    const holding = (user: BuiltUser, bytes: number) => server.ctx.db.update(users).set({ storageUsed: bytes }).where(eq(users.id, user.id));
    const upload = async (client: TestClient, site: SiteResponse, name: string) => {
      const response = await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile(`<p>${name}</p>`, name));
      expect(response.statusCode, response.body).toBe(201);
      await server.notices.settled();
    };

    it("tells the owner at 80 % and at 100 %, once per crossing, not on every upload", async () => {
      const { client, user } = await signedInClient(server);
      const site = await createSiteWith(client, htmlFile(), "Archive");
      await server.notices.settled();
      expect(await noticesOf(client, "storage_warning")).toEqual([]);

      await holding(user, Math.ceil(limit * 0.81));
      await upload(client, site, "a.html");
      await upload(client, site, "b.html");
      const warnings = await noticesOf(client, "storage_warning");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ title: "You have used 80% of your storage", link: "/dashboard" });
      expect(warnings[0]!.body).toMatch(/ of 500 MB on the Free plan\. When it is full, new uploads are refused\.$/);

      // Full: told once; still full after more changes, told nothing more.
      await holding(user, limit);
      await client.post(`/api/sites/${site.id}/deployments`, {});
      await server.notices.settled();
      await client.post(`/api/sites/${site.id}/deployments`, {});
      await server.notices.settled();
      expect(await noticesOf(client, "storage_full")).toHaveLength(1);
      expect((await noticesOf(client, "storage_full"))[0]!.title).toBe("Your storage is full");
      expect(await noticesOf(client, "storage_warning")).toHaveLength(1);

      // Back under 80 % quietly; crossing it again is news again.
      await holding(user, Math.floor(limit * 0.1));
      await upload(client, site, "c.html");
      expect(await feedOf(client).then((f) => f.filter((n) => n.kind.startsWith("storage")))).toHaveLength(2);
      await holding(user, Math.ceil(limit * 0.85));
      await upload(client, site, "d.html");
      expect(await noticesOf(client, "storage_warning")).toHaveLength(2);
    });
  });

  describe("the worker", () => {
    it("tells the owner of a site expiring within a day, once per expiry time", async () => {
      const { client, user } = await signedInClient(server);
      await setPlan(server, user.id, "pro");
      const soon = await createSiteWith(client, htmlFile(), "Launch Page");
      const later = await createSiteWith(client, htmlFile(), "Later Page");
      const now = new Date();
      const expiry = new Date(now.getTime() + 3 * 60 * 60 * 1000);
      for (const [site, at] of [
        [soon, expiry],
        [later, new Date(now.getTime() + 3 * DAY_MS)],
      ] as const) {
        const response = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: at.toISOString(), publishAt: null });
        expect(response.statusCode, response.body).toBe(200);
      }
      await runWorkerTick(server.ctx, undefined, now);
      await runWorkerTick(server.ctx, undefined, new Date(now.getTime() + 60_000));
      const expiring = await noticesOf(client, "site_expiring");
      expect(expiring).toHaveLength(1);
      expect(expiring[0]).toMatchObject({
        title: "Launch Page expires in less than a day",
        link: `/dashboard/sites/${soon.id}?tab=settings`,
        site_id: soon.id,
      });
      expect(expiring[0]!.body).toContain(
        `From ${expiry.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}`,
      );

      // A new expiry time is a new notice; the later site's turn comes when it is within a day.
      const moved = new Date(now.getTime() + 5 * 60 * 60 * 1000);
      await client.patch(`/api/sites/${soon.id}/schedule`, { expiresAt: moved.toISOString(), publishAt: null });
      await runWorkerTick(server.ctx, undefined, new Date(now.getTime() + 120_000));
      expect(await noticesOf(client, "site_expiring")).toHaveLength(2);
      await runWorkerTick(server.ctx, undefined, new Date(now.getTime() + 2.5 * DAY_MS));
      const all = await noticesOf(client, "site_expiring");
      expect(all).toHaveLength(3);
      expect(all[0]!.title).toBe("Later Page expires in less than a day");
      const [row] = await server.ctx.db.select().from(sites).where(eq(sites.id, later.id));
      expect(row!.expiry_noticed_for).toEqual(row!.expires_at);
    });

    it("deletes notices older than 90 days, whoever's, and keeps the rest", async () => {
      const { client, user } = await signedInClient(server);
      const other = await signedInClient(server);
      for (const who of [user, other.user]) {
        await notify(server.ctx, { userId: who.id, kind: "support_message", title: "Old" });
        await notify(server.ctx, { userId: who.id, kind: "support_message", title: "Recent" });
      }
      const now = new Date();
      await server.ctx.db
        .update(notifications)
        .set({ created_at: new Date(now.getTime() - 90 * DAY_MS - 60_000) })
        .where(eq(notifications.title, "Old"));
      await server.ctx.db
        .update(notifications)
        .set({ created_at: new Date(now.getTime() - 89 * DAY_MS) })
        .where(eq(notifications.title, "Recent"));
      await runWorkerTick(server.ctx, undefined, now);
      expect((await feedOf(client)).map((n) => n.title)).toEqual(["Recent"]);
      expect((await feedOf(other.client)).map((n) => n.title)).toEqual(["Recent"]);
    });
  });

  describe("plans", () => {
    it("tells the user their new plan when an admin changes it, and nothing when it stays", async () => {
      const admin = await signedInClient(server, { email: ADMIN_EMAIL });
      const { client, user } = await signedInClient(server);
      const changed = await admin.client.patch(`/api/admin/users/${user.id}`, { plan: "pro" });
      expect(changed.statusCode, changed.body).toBe(200);
      await admin.client.patch(`/api/admin/users/${user.id}`, { plan: "pro" });
      await server.notices.settled();
      const notices = await noticesOf(client, "plan_changed");
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({
        title: "You are now on the Pro plan",
        body: "5 GB of storage and files up to 250 MB each.",
        link: "/dashboard",
      });
      expect(await noticesOf(admin.client, "plan_changed")).toEqual([]);
    });

    it("mails it too when the user chose e-mail for plan changes", async () => {
      const admin = await signedInClient(server, { email: `second.${ADMIN_EMAIL}` });
      await server.ctx.db.execute(sql`update profiles set is_admin = true where id = ${admin.user.id}`);
      const { client, user } = await signedInClient(server, { name: "Grace" });
      await client.request("PUT", "/api/me/notifications/channels", { json: { channels: { plan_changed: { feed: true, email: true } } } });
      await admin.client.patch(`/api/admin/users/${user.id}`, { plan: "pro" });
      await server.notices.settled();
      await expect.poll(() => mailsTo(user).map((m) => m.subject)).toEqual(["You are now on the Pro plan"]);
      expect(mailsTo(user)[0]!.text).toContain("Hi Grace,");
      expect(mailsTo(user)[0]!.text).toContain("5 GB of storage and files up to 250 MB each.");
      expect(await noticesOf(client, "plan_changed")).toHaveLength(1);
    });
  });
});
