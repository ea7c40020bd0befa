import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart, zipOf } from "../../test/sites";
import { availableSubdomains, sites } from "../../db/schema";
import { SITE_TEXT } from "../../../common/sites";

describe.each(DRIVERS)("sites (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it("creates a site from one HTML file, live at once on its subdomain and its version host", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>Version one</h1>", "resume.html"), "My résumé");
    expect(site).toMatchObject({ name: "My résumé", status: "active", live_version: 1, file_count: 1, is_deleted: false });
    expect(site.subdomain).toMatch(/^[a-z]{5}$/);
    expect(site.url).toBe(`http://${site.subdomain}.localhost:8080/`);

    const root = await server.edge.get(hostOf(site.url), "/");
    expect(root.status).toBe(200);
    expect(root.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(root.headers["x-content-type-options"]).toBe("nosniff");
    expect(root.text).toBe("<h1>Version one</h1>");
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`, "/resume")).text).toBe("<h1>Version one</h1>");
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`, "/resume.html")).headers.location).toBe("/resume");
    expect((await server.edge.get(hostOf(site.url), "/nope.html")).status).toBe(404);

    const [deployment] = (await client.get(`/api/sites/${site.id}/deployments`)).json().deployments;
    expect(deployment).toMatchObject({ version: 1, status: "success", is_live: true, note: "Uploaded resume.html" });
    expect(deployment.deployment_url).toBe(`http://${site.subdomain}--v1.localhost:8080/`);
  });

  it("keeps one reservation per user and never gives two users the same name", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => signedInClient(server)));
    const names = await Promise.all(users.map(({ client }) => client.post("/api/subdomains/reserve", {}).then((r) => r.json().subdomain as string)));
    expect(new Set(names).size).toBe(8);
    const again = await users[0]!.client.post("/api/subdomains/reserve", {});
    expect(again.json().subdomain).toBe(names[0]);
    // Another user cannot use a name reserved by someone else.
    const stolen = await postMultipart(users[1]!.client, "/api/sites", { name: "Stolen", subdomain: names[0]! }, htmlFile());
    expect(stolen.statusCode).toBe(409);
  });

  it.each([
    [{ subdomain: "x" }, htmlFile(), 400, SITE_TEXT.nameRequired],
    [{ name: "  ", subdomain: "x" }, htmlFile(), 400, SITE_TEXT.nameRequired],
    [{ name: "No subdomain" }, htmlFile(), 400, SITE_TEXT.subdomainRequired],
    [{ name: "No file", subdomain: "x" }, undefined, 400, SITE_TEXT.fileRequired],
  ])("refuses %j and creates nothing", async (fields, file, status, message) => {
    const { client, user } = await signedInClient(server);
    const response = await postMultipart(client, "/api/sites", fields, file);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(message);
    expect(await server.ctx.db.select().from(sites).where(eq(sites.user_id, user.id))).toHaveLength(0);
  });

  it("gives a PDF a viewer page and keeps the file at its own path", async () => {
    const { client } = await signedInClient(server);
    const pdf = Buffer.from("%PDF-1.4\n% a tiny pdf\n");
    const site = await createSiteWith(client, { name: "report.pdf", content: pdf, type: "application/pdf" });
    const page = await server.edge.get(hostOf(site.url), "/");
    expect(page.text).toContain('<iframe class="viewer" src="/report.pdf"');
    expect(page.text).toContain('href="/report.pdf" download');
    const file = await server.edge.get(hostOf(site.url), "/report.pdf");
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.body.equals(pdf)).toBe(true);
  });

  it("gives an image a page that shows it", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, { name: "cat.png", content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), type: "image/png" });
    expect((await server.edge.get(hostOf(site.url), "/")).text).toContain('<img src="/cat.png" alt="cat.png">');
    expect((await server.edge.get(hostOf(site.url), "/cat.png")).headers["content-type"]).toBe("image/png");
  });

  it("unpacks a zip, strips its single top folder and serves its index.html and assets", async () => {
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "my-site/index.html", data: '<link rel="stylesheet" href="css/site.css"><h1>Zip</h1>' },
      { name: "my-site/css/site.css", data: "h1{color:red}", method: "deflate" },
      { name: "my-site/docs/index.html", data: "<p>Docs</p>" },
    ]);
    const site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    expect(site.file_count).toBe(3);
    const host = hostOf(site.url);
    expect((await server.edge.get(host, "/")).text).toContain("<h1>Zip</h1>");
    const css = await server.edge.get(host, "/css/site.css");
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.text).toBe("h1{color:red}");
    expect((await server.edge.get(host, "/docs/")).text).toBe("<p>Docs</p>");
    const bare = await server.edge.get(host, "/docs?x=1");
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe("/docs/?x=1");
    const folders = (await client.get(`/api/sites/${site.id}/files`)).json().files.map((f: { filename: string }) => f.filename);
    expect(folders).toEqual(["css", "docs", "index.html"]);
  });

  it("lists the files of a zip without an index.html", async () => {
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "a.html", data: "a" },
      { name: "b<script>.css", data: "b" },
    ]);
    const site = await createSiteWith(client, { name: "files.zip", content: zip, type: "application/zip" });
    const page = await server.edge.get(hostOf(site.url), "/");
    expect(page.text).toContain('href="/a.html"');
    expect(page.text).toContain("b&lt;script&gt;.css");
    expect(page.text).not.toContain("b<script>");
  });

  it("stops serving a deleted site on every host at once, and restores exactly the same site", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>keep me</p>"));
    const host = hostOf(site.url);
    expect((await server.edge.get(host)).status).toBe(200);

    const deleted = await client.delete(`/api/sites/${site.id}`);
    expect(deleted.json()).toMatchObject({ status: "deleted", is_deleted: true });
    expect(deleted.json().deleted_at).not.toBeNull();
    expect((await server.edge.get(host)).status).toBe(404);
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`)).status).toBe(404);
    expect((await client.post(`/api/sites/${site.id}/deployments`, {})).statusCode).toBe(409);

    const restored = await client.post(`/api/sites/${site.id}/restore`, {});
    expect(restored.json()).toMatchObject({ status: "active", is_deleted: false, deleted_at: null, subdomain: site.subdomain });
    expect((await server.edge.get(host)).text).toBe("<p>keep me</p>");
  });

  it("edits the name and description", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    const updated = await client.patch(`/api/sites/${site.id}`, { name: "Renamed", description: "About it" });
    expect(updated.json()).toMatchObject({ name: "Renamed", description: "About it" });
    expect((await client.patch(`/api/sites/${site.id}`, { name: "" })).json().error.message).toBe(SITE_TEXT.nameRequired);
  });

  it("lists the user's sites newest first and counts them in the stats", async () => {
    const { client } = await signedInClient(server);
    const first = await createSiteWith(client, htmlFile(), "First");
    const second = await createSiteWith(client, htmlFile("<p>two</p>"), "Second");
    const list = (await client.get("/api/sites")).json().sites;
    expect(list.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    const stats = (await client.get("/api/stats")).json();
    expect(stats).toMatchObject({ total_sites: 2, deployments: 2, plan: "free", storage_quota: 500 * 1024 * 1024, max_file_bytes: 50 * 1024 * 1024 });
    // Two different files: both count, once each.
    expect(stats.storage_used).toBe("<h1>Hello</h1>".length + "<p>two</p>".length);
  });

  it("returns a purged site's subdomain to the pool", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    await client.delete(`/api/sites/${site.id}`);
    const [pool] = await server.ctx.db.select().from(availableSubdomains).where(eq(availableSubdomains.subdomain, site.subdomain));
    expect(pool).toMatchObject({ is_assigned: true, assigned_site_id: site.id });
  });
});
