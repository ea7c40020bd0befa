import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart, zipOf } from "../../test/sites";
import type { DeployResponse, SiteManifestResponse } from "../../../common/deploys";
import { SITE_TEXT } from "../../../common/sites";
import { manifestOf, openDeploy, publish, putFile, sha256Of } from "../../test/deploys";
import { purgeDeletedSites } from "../../services/purgeDeletedSites";
import { availableSubdomains, blobs, sites } from "../../db/schema";
import { eq } from "drizzle-orm";

describe.each(DRIVERS)("files and deployments (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it("creates folders, uploads into them, lists folders first, and publishes each change", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<a href='docs/'>docs</a>"));
    const folder = await client.post(`/api/sites/${site.id}/folders`, { name: "docs", parent: null });
    expect(folder.statusCode).toBe(201);
    expect(folder.json().file).toMatchObject({ filename: "docs", is_folder: true, file_path: "docs", parent_folder: null, url: null });
    expect(folder.json().deployment).toMatchObject({ version: 2, status: "success", note: "Created folder docs" });

    const upload = await postMultipart(client, `/api/sites/${site.id}/files`, { parent: "docs" }, htmlFile("<p>guide</p>", "index.html"));
    expect(upload.statusCode).toBe(201);
    expect(upload.json().files[0]).toMatchObject({ file_path: "docs/index.html", parent_folder: "docs", file_type: "text/html; charset=utf-8" });
    expect(upload.json().files[0].url).toBe(`http://${site.subdomain}.localhost:8080/docs/index.html`);
    expect(upload.json().deployment).toMatchObject({ version: 3, status: "success", is_live: true });
    expect((await server.edge.get(hostOf(site.url), "/docs/")).text).toBe("<p>guide</p>");

    await postMultipart(client, `/api/sites/${site.id}/files`, {}, { name: "about.css", content: "p{}", type: "text/css" });
    const root = (await client.get(`/api/sites/${site.id}/files`)).json().files;
    expect(root.map((f: { filename: string }) => f.filename)).toEqual(["docs", "about.css", "index.html"]);
    const inDocs = (await client.get(`/api/sites/${site.id}/files?parent=docs`)).json().files;
    expect(inDocs.map((f: { file_path: string }) => f.file_path)).toEqual(["docs/index.html"]);

    // Deleting the folder takes what is in it, and the live site follows at once.
    const docs = root.find((f: { filename: string }) => f.filename === "docs");
    const removed = await client.delete(`/api/sites/${site.id}/files/${docs.id}`);
    expect(removed.json().deployment).toMatchObject({ note: "Deleted folder docs", status: "success" });
    expect((await server.edge.get(hostOf(site.url), "/docs/")).status).toBe(404);
    expect((await client.get(`/api/sites/${site.id}/files?parent=docs`)).json().files).toEqual([]);
  });

  it("refuses an empty folder name, a duplicate, and unsafe names", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    expect((await client.post(`/api/sites/${site.id}/folders`, { name: "   " })).json().error.message).toBe(SITE_TEXT.folderNameRequired);
    expect((await client.post(`/api/sites/${site.id}/folders`, { name: "index.html" })).statusCode).toBe(409);
    for (const name of ["..", "a/../../b", "nul\u0000x", "back\\slash"]) {
      expect((await client.post(`/api/sites/${site.id}/folders`, { name })).statusCode).toBe(400);
    }
    expect((await client.get(`/api/sites/${site.id}/files?parent=../..`)).statusCode).toBe(400);
  });

  it("stores a zip as a file unless asked to extract it", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    const zip = await zipOf([
      { name: "a.html", data: "A" },
      { name: "img/b.css", data: "B" },
    ]);
    const kept = await postMultipart(client, `/api/sites/${site.id}/files`, {}, { name: "bundle.zip", content: zip, type: "application/zip" });
    expect(kept.json().files.map((f: { file_path: string }) => f.file_path)).toEqual(["bundle.zip"]);
    const unpacked = await postMultipart(
      client,
      `/api/sites/${site.id}/files`,
      { extract: "true", parent: "x" },
      { name: "bundle.zip", content: zip, type: "application/zip" },
    );
    expect(
      unpacked
        .json()
        .files.map((f: { file_path: string }) => f.file_path)
        .sort(),
    ).toEqual(["x/a.html", "x/img/b.css"]);
    expect((await server.edge.get(hostOf(site.url), "/x/img/b.css")).text).toBe("B");
  });

  it("lists the working tree as a deploy's manifest, which a deploy that adds a folder keeps whole", async () => {
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "index.html", data: "<h1>home</h1>" },
      { name: "css/site.css", data: "body{}" },
      { name: "docs/guide/index.html", data: "<p>guide</p>" },
    ]);
    const site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    await client.post(`/api/sites/${site.id}/folders`, { name: "empty" });

    const listed = await client.get(`/api/sites/${site.id}/files/manifest`);
    expect(listed.statusCode, listed.body).toBe(200);
    const manifest = listed.json<SiteManifestResponse>().files;
    expect(manifest).toEqual([
      { path: "css/site.css", sha256: sha256Of("body{}"), size: 6 },
      { path: "docs/guide/index.html", sha256: sha256Of("<p>guide</p>"), size: 12 },
      { path: "index.html", sha256: sha256Of("<h1>home</h1>"), size: 13 },
    ]);

    // The dashboard's Files tab: the site's manifest plus a folder dropped into docs/.
    const added = [
      { path: "docs/api/index.html", content: "<p>api</p>" },
      { path: "docs/api/index.css", content: "body{}" },
    ];
    const opened = await openDeploy(client, site.id, { files: [...manifest, ...manifestOf(added)] });
    expect(opened.json<DeployResponse>().missing).toEqual([sha256Of("<p>api</p>")]);
    await putFile(client, site.id, opened.json<DeployResponse>().id, "<p>api</p>");
    expect((await publish(client, site.id, opened.json<DeployResponse>().id)).json().deployment.status).toBe("success");
    for (const [path, text] of [
      ["/", "<h1>home</h1>"],
      ["/docs/guide/", "<p>guide</p>"],
      ["/docs/api/", "<p>api</p>"],
      ["/docs/api/index.css", "body{}"],
    ])
      expect((await server.edge.get(hostOf(site.url), path)).text, path).toBe(text);
    expect((await client.get(`/api/sites/${site.id}/files/manifest`)).json<SiteManifestResponse>().files.map((f) => f.path)).toEqual([
      "css/site.css",
      "docs/api/index.css",
      "docs/api/index.html",
      "docs/guide/index.html",
      "index.html",
    ]);
  });

  it("downloads a file as an attachment", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>bytes</p>", "pagé.html"));
    const [file] = (await client.get(`/api/sites/${site.id}/files`)).json().files;
    const download = await client.get(`/api/sites/${site.id}/files/${file.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("<p>bytes</p>");
    expect(download.headers["content-disposition"]).toBe(`attachment; filename="pag_.html"; filename*=UTF-8''pag%C3%A9.html`);
  });

  it("deploys now, keeps every version at its own URL, and rolls back with one call", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>one</p>"));
    await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile("<p>two</p>"));
    const now = await client.post(`/api/sites/${site.id}/deployments`, {});
    expect(now.statusCode).toBe(201);
    expect(now.json()).toMatchObject({ version: 3, status: "success", note: "Deployed from the dashboard" });

    const list = (await client.get(`/api/sites/${site.id}/deployments`)).json().deployments;
    expect(list.map((d: { version: number }) => d.version)).toEqual([3, 2, 1]);
    expect(list.map((d: { is_live: boolean }) => d.is_live)).toEqual([true, false, false]);
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`)).text).toBe("<p>one</p>");
    expect((await server.edge.get(hostOf(site.url))).text).toBe("<p>two</p>");

    const back = await client.post(`/api/sites/${site.id}/deployments/${list[2].id}/rollback`, {});
    expect(back.json()).toMatchObject({ version: 1, is_live: true });
    expect((await server.edge.get(hostOf(site.url))).text).toBe("<p>one</p>");
    // The working tree follows, and the newer version keeps its own URL.
    const [index] = (await client.get(`/api/sites/${site.id}/files`)).json().files;
    expect((await client.get(`/api/sites/${site.id}/files/${index.id}/download`)).body).toBe("<p>one</p>");
    expect((await server.edge.get(`${site.subdomain}--v3.localhost:8080`)).text).toBe("<p>two</p>");
    expect((await client.get(`/api/sites/${site.id}`)).json().live_version).toBe(1);
  });

  it("purges a site 14 days after deletion: rows, unshared blobs, and its subdomain back to the pool", async () => {
    const { client } = await signedInClient(server);
    const shared = "<p>shared bytes</p>";
    const keep = await createSiteWith(client, htmlFile(shared));
    const doomed = await createSiteWith(client, htmlFile(shared));
    await postMultipart(client, `/api/sites/${doomed.id}/files`, {}, { name: "only-here.css", content: "unique{}", type: "text/css" });
    await client.delete(`/api/sites/${doomed.id}`);

    const deletedAt = (await client.get(`/api/sites/${doomed.id}`)).json().deleted_at as string;
    expect(await purgeDeletedSites(server.ctx, new Date(Date.parse(deletedAt) + 13 * 86_400_000))).toBe(0);
    expect(await purgeDeletedSites(server.ctx, new Date(Date.parse(deletedAt) + 14 * 86_400_000 + 1000))).toBe(1);

    expect((await client.get(`/api/sites/${doomed.id}`)).statusCode).toBe(404);
    expect(await server.ctx.db.select().from(sites).where(eq(sites.id, doomed.id))).toHaveLength(0);
    const [pool] = await server.ctx.db.select().from(availableSubdomains).where(eq(availableSubdomains.subdomain, doomed.subdomain));
    expect(pool).toMatchObject({ is_assigned: false, assigned_site_id: null });
    // The shared blob stays for the other site; the unique one is gone from the table and the store.
    expect((await server.edge.get(hostOf(keep.url))).text).toBe(shared);
    const shas = (await server.ctx.db.select().from(blobs)).map((b) => b.sha256);
    const uniqueSha = (await import("node:crypto")).createHash("sha256").update("unique{}").digest("hex");
    expect(shas).not.toContain(uniqueSha);
    expect(await server.ctx.blobs.stat(uniqueSha)).toBeUndefined();
  });
});
