import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { signedInClient, type BuiltUser } from "../../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../../test/sites";
import { notifyDomainActive } from "../../services/notifyDomainActive";
import type { NotificationPreferences } from "../../../common/account";
import type { SiteResponse } from "../../../common/sites";

const BAD_REDIRECTS = { name: "_redirects", content: "/a /b 301\n/c /d 303\n", type: "text/plain" };

describe.each(DRIVERS)("e-mail notifications (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const setPreferences = async (client: TestClient, preferences: NotificationPreferences) => {
    const response = await client.request("PUT", "/api/me/notifications", { json: preferences });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<NotificationPreferences>();
  };

  /** Publishes a bad _redirects file: the deployment fails, the live version stays. */
  const failPublish = async (client: TestClient, site: SiteResponse) => {
    const response = await postMultipart(client, `/api/sites/${site.id}/files`, {}, BAD_REDIRECTS);
    expect(response.json().deployment).toMatchObject({ status: "failed", version: 2 });
    await server.notices.settled();
  };
  const mailsTo = (user: BuiltUser) => server.outbox.messagesTo(user.email).filter((m) => !/Confirm your e-mail/.test(m.subject));

  it("starts with deploy-failed and domain-active on, weekly summary off, and saves changes", async () => {
    const { client } = await signedInClient(server);
    expect((await client.get("/api/me/notifications")).json()).toEqual({ deployFailed: true, domainActive: true, weeklySummary: false });
    const saved = await setPreferences(client, { deployFailed: false, domainActive: true, weeklySummary: true });
    expect(saved).toEqual({ deployFailed: false, domainActive: true, weeklySummary: true });
    expect((await client.get("/api/me/notifications")).json()).toEqual(saved);
  });

  it.each([[{ deployFailed: true }], [{ deployFailed: "yes", domainActive: true, weeklySummary: false }], [null]])(
    "refuses %j and changes nothing",
    async (body) => {
      const { client } = await signedInClient(server);
      const response = await client.request("PUT", "/api/me/notifications", { json: body });
      expect(response.statusCode).toBe(400);
      expect((await client.get("/api/me/notifications")).json()).toEqual({ deployFailed: true, domainActive: true, weeklySummary: false });
    },
  );

  it("changes only the signed-in user's preferences", async () => {
    const owner = await signedInClient(server);
    const other = await signedInClient(server);
    await setPreferences(other.client, { deployFailed: false, domainActive: false, weeklySummary: true });
    expect((await owner.client.get("/api/me/notifications")).json()).toEqual({ deployFailed: true, domainActive: true, weeklySummary: false });
  });

  it("e-mails the owner once when a deployment fails, naming the site, version and error", async () => {
    const { client, user } = await signedInClient(server, { name: "Grace Hopper" });
    const site = await createSiteWith(client, htmlFile(), "Compiler Docs");
    await server.notices.settled();
    expect(mailsTo(user)).toEqual([]);

    await failPublish(client, site);
    const mails = mailsTo(user);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe("Deployment of Compiler Docs failed");
    expect(mail!.text).toContain("Hi Grace Hopper,");
    expect(mail!.text).toContain("Version 2 of your site Compiler Docs could not be published");
    expect(mail!.text).toMatch(/_redirects line 2: unknown status "303"/);
    expect(mail!.links).toEqual([`http://localhost:8080/dashboard/sites/${site.id}`]);
  });

  it("sends nothing with the preference off, and nothing for a successful deployment", async () => {
    const { client, user } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    await setPreferences(client, { deployFailed: false, domainActive: true, weeklySummary: false });
    await failPublish(client, site);
    await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile("<p>fixed</p>", "about.html"));
    await server.notices.settled();
    expect(mailsTo(user)).toEqual([]);
  });

  it("tells the site's owner, not whoever else is signed in", async () => {
    const owner = await signedInClient(server);
    const other = await signedInClient(server);
    const site = await createSiteWith(owner.client, htmlFile());
    await failPublish(owner.client, site);
    expect(mailsTo(owner.user)).toHaveLength(1);
    expect(mailsTo(other.user)).toEqual([]);
  });

  it("has the domain-active notice ready for custom domains, following its own preference", async () => {
    const { client, user } = await signedInClient(server, { name: "Ada" });
    const site = await createSiteWith(client, htmlFile(), "Notes");
    expect(await notifyDomainActive(server.ctx, { siteId: site.id, domain: "notes.example.org" })).toBe(true);
    const [mail] = mailsTo(user);
    expect(mail!.subject).toBe("notes.example.org is now active");
    expect(mail!.text).toContain("https://notes.example.org/");
    expect(mail!.links).toContain(`http://localhost:8080/dashboard/sites/${site.id}`);

    await setPreferences(client, { deployFailed: true, domainActive: false, weeklySummary: false });
    expect(await notifyDomainActive(server.ctx, { siteId: site.id, domain: "notes.example.org" })).toBe(false);
    expect(mailsTo(user)).toHaveLength(1);
  });

  it.each([
    ["GET", (c: TestClient) => c.get("/api/me/notifications")],
    [
      "PUT",
      (c: TestClient) => c.request("PUT", "/api/me/notifications", { json: { deployFailed: false, domainActive: false, weeklySummary: false } }),
    ],
  ])("%s /api/me/notifications as a guest is 401", async (_method, call) => {
    expect((await call(server.client())).statusCode).toBe(401);
  });
});
