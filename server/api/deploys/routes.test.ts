// The deploy API end to end: manifest → missing → upload → publish, served by the real edge.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DEPLOY_MAX_FOLDERS, DEPLOY_TEXT, type DeployResponse, type SiteManifestResponse } from "../../../common/deploys";
import type { DeploymentResponse, SiteResponse } from "../../../common/sites";
import { deploys, deployUploads, siteFiles, users } from "../../db/schema";
import { sweepOrphans } from "../../services/sweepOrphans";
import {
  bytesOf,
  deployFiles,
  digestTarOf,
  manifestOf,
  openDeploy,
  paxEntry,
  postTar,
  publish,
  publishWithTar,
  putFile,
  sha256Of,
  tarEntry,
  tarGzOf,
  tarHeader,
  tarOf,
  type FileSpec,
} from "../../test/deploys";
import { setPlan, signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart, zipOf } from "../../test/sites";
import { DRIVERS, getTestServer, TEST_APP_URL, type TestClient, type TestServer } from "../../test/support";

const SITE: FileSpec[] = [
  { path: "index.html", content: "<h1>Home</h1>" },
  { path: "css/site.css", content: "body { color: red }" },
  { path: "docs/guide/index.html", content: "<p>guide</p>" },
];

/** A PUT over a real socket with a chunked body (no Content-Length), answered before the body ends. */
async function chunkedPut(port: number, url: string, client: TestClient, chunks: string[]): Promise<{ status: number; body: string }> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: url,
        method: "PUT",
        headers: { host: "localhost:8080", origin: TEST_APP_URL, cookie, "content-type": "application/octet-stream" },
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (chunk: Buffer) => parts.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
      },
    );
    request.on("error", reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

async function emptySite(client: TestClient, name = "API site"): Promise<SiteResponse> {
  const response = await client.post("/api/sites", { name });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json<SiteResponse>();
}

describe.each(DRIVERS)("the deploy API (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const stored = async (sha: string) => (await server.ctx.blobs.stat(sha)) !== undefined;

  it("creates an empty site from JSON, then opens, uploads and publishes a deploy the edge serves", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    expect(site).toMatchObject({ name: "API site", status: "pending", live_deployment_id: null, file_count: 0 });
    expect(site.subdomain).toMatch(/^[a-z]{5}$/);

    const opened = await openDeploy(client, site.id, { files: manifestOf(SITE), message: "First" });
    expect(opened.statusCode).toBe(201);
    const deploy = opened.json<DeployResponse>();
    expect(deploy).toMatchObject({ status: "uploading", draft: false, message: "First", file_count: 3, deployment: null, site_url: site.url });
    expect(deploy.missing).toEqual(SITE.map((f) => sha256Of(f.content)).sort());

    expect((await putFile(client, site.id, deploy.id, SITE[0]!.content)).statusCode).toBe(204);
    const rest = await postTar(client, site.id, deploy.id, digestTarOf(SITE.slice(1)));
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json<DeployResponse>().missing).toEqual([]);

    const published = await publish(client, site.id, deploy.id);
    expect(published.statusCode, published.body).toBe(200);
    const body = published.json<DeployResponse>();
    expect(body).toMatchObject({ status: "published", missing: [], error: null });
    expect(body.deployment).toMatchObject({ version: 1, status: "success", deployment_url: `http://${site.subdomain}--v1.localhost:8080/` });

    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>Home</h1>");
    expect((await server.edge.get(hostOf(site.url), "/docs/guide/")).text).toBe("<p>guide</p>");
    const css = await server.edge.get(hostOf(site.url), "/css/site.css");
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");

    // The working tree is the manifest, folders included, and the deployment says what made it.
    const files = (await client.get(`/api/sites/${site.id}/files`)).json<{ files: { file_path: string }[] }>().files.map((f) => f.file_path);
    expect(files).toEqual(["css", "docs", "index.html"]);
    expect((await client.get(`/api/sites/${site.id}/files?parent=docs`)).json().files[0]).toMatchObject({ file_path: "docs/guide", is_folder: true });
    const [deployment] = (await client.get(`/api/sites/${site.id}/deployments`)).json<{ deployments: DeploymentResponse[] }>().deployments;
    expect(deployment).toMatchObject({ note: "First", is_live: true, draft: false, file_count: 3 });
    expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ status: "active", live_version: 1, file_count: 3 });
  });

  it("asks a second deploy for exactly the one file that changed", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    await deployFiles(client, site.id, SITE);
    const changed = [...SITE.slice(0, 2), { path: "docs/guide/index.html", content: "<p>guide, second edition</p>" }];
    const opened = (await openDeploy(client, site.id, { files: manifestOf(changed) })).json<DeployResponse>();
    expect(opened.missing).toEqual([sha256Of("<p>guide, second edition</p>")]);
    expect((await putFile(client, site.id, opened.id, "<p>guide, second edition</p>")).statusCode).toBe(204);
    expect((await publish(client, site.id, opened.id)).json<DeployResponse>().deployment).toMatchObject({ version: 2, status: "success" });
    expect((await server.edge.get(hostOf(site.url), "/docs/guide/")).text).toBe("<p>guide, second edition</p>");
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`, "/docs/guide/")).text).toBe("<p>guide</p>");
  });

  /** A site at SITE's first version, and an open deploy that changes two of its files. */
  async function twoFilesChanged(css: string, guide: string) {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    await deployFiles(client, site.id, SITE);
    const changed = [SITE[0]!, { path: "css/site.css", content: css }, { path: "docs/guide/index.html", content: guide }];
    const opened = (await openDeploy(client, site.id, { files: manifestOf(changed) })).json<DeployResponse>();
    return { client, site, changed, opened };
  }

  it("takes the last files with the publish, and answers a repeated publish as the first", async () => {
    const { client, site, changed, opened } = await twoFilesChanged("body { color: blue }", "<p>v2</p>");
    expect(opened.missing).toHaveLength(2);
    const tar = digestTarOf(changed.slice(1));
    const published = await publishWithTar(client, site.id, opened.id, tar);
    expect(published.statusCode, published.body).toBe(200);
    const version = published.json<DeployResponse>().deployment;
    expect(version).toMatchObject({ version: 2, status: "success" });
    expect((await server.edge.get(hostOf(site.url), "/css/site.css")).text).toBe("body { color: blue }");
    // Its answer lost, the client sends it again: the same version, the body not even read.
    for (const body of [tar, Buffer.from("not a tar")]) {
      const again = await publishWithTar(client, site.id, opened.id, body);
      expect([again.statusCode, again.json<DeployResponse>().deployment?.id]).toEqual([200, version!.id]);
    }
    expect((await client.get(`/api/sites/${site.id}/deployments`)).json().deployments).toHaveLength(2);
  });

  it("keeps what a publish brought but publishes nothing while a file is still missing, or when its tar is refused", async () => {
    const { client, site, changed, opened } = await twoFilesChanged("body { color: green }", "<p>v3</p>");
    // A tar that lies about a file: refused whole, nothing kept, the live site as it was.
    const lying = tarOf([{ name: sha256Of(changed[1]!.content), content: "x".repeat(bytesOf(changed[1]!.content).length) }]);
    const refused = await publishWithTar(client, site.id, opened.id, lying);
    expect([refused.statusCode, refused.json().error.message]).toEqual([400, DEPLOY_TEXT.digestMismatch(sha256Of(changed[1]!.content))]);
    expect(await stored(sha256Of("x".repeat(bytesOf(changed[1]!.content).length)))).toBe(false);
    // One of the two: stored, but the publish waits for the other.
    const partial = await publishWithTar(client, site.id, opened.id, digestTarOf([changed[1]!]));
    expect([partial.statusCode, partial.json().error.code]).toEqual([409, "files_missing"]);
    expect((await client.get(`/api/sites/${site.id}/deploys/${opened.id}`)).json<DeployResponse>().missing).toEqual([sha256Of("<p>v3</p>")]);
    expect((await server.edge.get(hostOf(site.url), "/css/site.css")).text).toBe("body { color: red }");
    const done = await publishWithTar(client, site.id, opened.id, digestTarOf([changed[2]!]));
    expect(done.json<DeployResponse>().deployment).toMatchObject({ version: 2, status: "success" });
  });

  it("resets the working tree to each version, a file becoming a folder and back included", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const first = [
      { path: "docs", content: "a file named docs" },
      { path: "a/b/c.html", content: "<p>c</p>" },
    ];
    const second = [
      { path: "docs/index.html", content: "<p>docs</p>" },
      { path: "a/b/c.html", content: "<p>c, changed</p>" },
      { path: "a/d.html", content: "<p>d</p>" },
    ];
    const tree = async () =>
      (await server.ctx.db.select().from(siteFiles).where(eq(siteFiles.site_id, site.id)))
        .map((f) => [f.file_path, f.is_folder, f.parent_folder, f.filename, f.sha256, f.file_size])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    const expected = (files: FileSpec[], folders: string[]) =>
      [
        ...folders.map((f) => [f, true, f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : null, f.slice(f.lastIndexOf("/") + 1), null, 0]),
        ...files.map((f) => [
          f.path,
          false,
          f.path.includes("/") ? f.path.slice(0, f.path.lastIndexOf("/")) : null,
          f.path.slice(f.path.lastIndexOf("/") + 1),
          sha256Of(f.content),
          bytesOf(f.content).length,
        ]),
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    const v1 = (await deployFiles(client, site.id, first)).published.deployment!;
    expect(await tree()).toEqual(expected(first, ["a", "a/b"]));
    await deployFiles(client, site.id, second);
    expect(await tree()).toEqual(expected(second, ["a", "a/b", "docs"]));
    expect((await client.post(`/api/sites/${site.id}/deployments/${v1.id}/rollback`, {})).statusCode).toBe(200);
    expect(await tree()).toEqual(expected(first, ["a", "a/b"]));
    expect((await server.edge.get(hostOf(site.url), "/docs")).text).toBe("a file named docs");
  });

  it("keeps the empty folders a deploy brings in the working tree, and a deploy without them removes them", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const listed = async (parent?: string) =>
      (await client.get(`/api/sites/${site.id}/files${parent ? `?parent=${parent}` : ""}`))
        .json<{ files: { file_path: string; is_folder: boolean }[] }>()
        .files.map((f) => `${f.file_path}${f.is_folder ? "/" : ""}`);
    // "docs" holds a file already: named as a folder too, it changes nothing.
    const { published } = await deployFiles(client, site.id, SITE, { folders: ["images", "docs/empty", "docs"] });
    expect(published).toMatchObject({ status: "published", file_count: 3 });
    expect(await listed()).toEqual(["css/", "docs/", "images/", "index.html"]);
    expect(await listed("docs")).toEqual(["docs/empty/", "docs/guide/"]);
    expect(await listed("images")).toEqual([]);
    // What the Files tab reads to keep the rest of the site names them, so a folder dropped there keeps them too.
    expect((await client.get(`/api/sites/${site.id}/files/manifest`)).json<SiteManifestResponse>().folders).toEqual(["docs/empty", "images"]);

    // The same files with other folders are another deploy, not a resumption of the first.
    const other = await openDeploy(client, site.id, { files: manifestOf(SITE), folders: ["img"] });
    expect(other.statusCode).toBe(201);

    await deployFiles(client, site.id, SITE);
    expect(await listed()).toEqual(["css/", "docs/", "index.html"]);
    expect(await listed("docs")).toEqual(["docs/guide/"]);
    expect((await client.get(`/api/sites/${site.id}/files/manifest`)).json<SiteManifestResponse>().folders).toEqual([]);
  });

  it("refuses a folder whose path is unsafe, is a file of the manifest or lies inside one, and too many folders", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const files = manifestOf(SITE);
    const cases: [string[], string][] = [
      [["../up"], 'The path contains "." or "..": ../up'],
      [["images/"], "The path contains an empty name (// or a trailing /): images/"],
      [["/abs"], "The path must be relative, not start with /: /abs"],
      [["index.html"], DEPLOY_TEXT.fileAndFolder("index.html")],
      [["index.html/inside"], DEPLOY_TEXT.fileAndFolder("index.html")],
      [[""], DEPLOY_TEXT.emptyFolderPath],
      [Array.from({ length: DEPLOY_MAX_FOLDERS + 1 }, (_, i) => `f${i}`), DEPLOY_TEXT.tooManyFolders],
    ];
    for (const [folders, message] of cases) {
      const response = await openDeploy(client, site.id, { files, folders });
      expect([response.statusCode, response.json().error.message], folders.slice(0, 3).join(",")).toEqual([400, message]);
    }
    expect((await server.ctx.db.select().from(deploys).where(eq(deploys.site_id, site.id))).length).toBe(0);
  });

  it("answers every step's retry as the first time", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const files = manifestOf(SITE);
    const first = await openDeploy(client, site.id, { files, message: "Same" });
    // The same manifest (in another order), message and draft flag: the same open deploy.
    const again = await openDeploy(client, site.id, { files: [...files].reverse(), message: "Same" });
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    const id = first.json<DeployResponse>().id;
    expect(again.json<DeployResponse>().id).toBe(id);
    // Another message is another deploy.
    expect((await openDeploy(client, site.id, { files, message: "Other" })).json<DeployResponse>().id).not.toBe(id);

    for (let i = 0; i < 2; i++) expect((await putFile(client, site.id, id, SITE[0]!.content)).statusCode).toBe(204);
    // Opened again now, it names only what it has not received.
    const resumed = (await openDeploy(client, site.id, { files, message: "Same" })).json<DeployResponse>();
    expect([resumed.id, resumed.missing]).toEqual([
      id,
      SITE.slice(1)
        .map((f) => sha256Of(f.content))
        .sort(),
    ]);
    for (let i = 0; i < 2; i++) expect((await postTar(client, site.id, id, digestTarOf(SITE))).json<DeployResponse>().missing).toEqual([]);
    const [one, two] = [await publish(client, site.id, id), await publish(client, site.id, id)];
    expect(one.json<DeployResponse>().deployment!.id).toBe(two.json<DeployResponse>().deployment!.id);
    expect((await client.get(`/api/sites/${site.id}/deployments`)).json().deployments).toHaveLength(1);
    const fetched = await client.get(`/api/sites/${site.id}/deploys/${id}`);
    expect(fetched.json<DeployResponse>()).toMatchObject({ status: "published", deployment: { version: 1 } });
    // Once published it takes no more files, and the same manifest opens a new deploy.
    expect((await putFile(client, site.id, id, "late")).json().error.message).toBe(DEPLOY_TEXT.deployClosed);
    expect((await openDeploy(client, site.id, { files, message: "Same" })).statusCode).toBe(201);
  });

  it("refuses bytes that are not the digest's, of another size, or not in the manifest, and keeps none of them", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(SITE) })).json<DeployResponse>();
    const index = sha256Of(SITE[0]!.content);

    const wrong = await putFile(client, site.id, deploy.id, "<h1>Hom3</h1>", index);
    expect([wrong.statusCode, wrong.json().error.message]).toEqual([400, DEPLOY_TEXT.digestMismatch(index)]);
    expect(await stored(sha256Of("<h1>Hom3</h1>"))).toBe(false);

    const shorter = await putFile(client, site.id, deploy.id, "<h1>Hom</h1>", index);
    expect(shorter.json().error.message).toBe(DEPLOY_TEXT.sizeMismatch("index.html", 13, 12));
    // A stated length is judged before a byte is read; an unstated one, as the bytes come.
    const longer = await putFile(client, site.id, deploy.id, "<h1>Home</h1> and more", index);
    expect(longer.json().error.message).toBe(DEPLOY_TEXT.sizeMismatch("index.html", 13, 22));
    const listening = await server.listen();
    try {
      const chunked = await chunkedPut(listening.port, `/api/sites/${site.id}/deploys/${deploy.id}/files/${index}`, client, [
        "<h1>Home</h1>",
        " and more, and more",
      ]);
      expect([chunked.status, JSON.parse(chunked.body).error.message]).toEqual([400, DEPLOY_TEXT.sizeExceeded("index.html", 13)]);
    } finally {
      await listening.close();
    }

    const stranger = await putFile(client, site.id, deploy.id, "not in the manifest");
    expect([stranger.statusCode, stranger.json().error.message]).toEqual([400, DEPLOY_TEXT.notInManifest(sha256Of("not in the manifest"))]);
    expect(await stored(sha256Of("not in the manifest"))).toBe(false);
    expect((await putFile(client, site.id, deploy.id, "x", "ABC")).statusCode).toBe(400);

    expect((await client.get(`/api/sites/${site.id}/deploys/${deploy.id}`)).json<DeployResponse>().missing).toHaveLength(3);
    const early = await publish(client, site.id, deploy.id);
    expect([early.statusCode, early.json().error.message]).toEqual([409, DEPLOY_TEXT.stillMissing(3)]);
  });

  it("asks for a file another user stores: knowing its digest proves nothing", async () => {
    const owner = await signedInClient(server);
    const secret = "<p>the other user's private page</p>";
    await createSiteWith(owner.client, htmlFile(secret));
    expect(await stored(sha256Of(secret))).toBe(true);

    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const deploy = (await openDeploy(client, site.id, { files: manifestOf([{ path: "index.html", content: secret }]) })).json<DeployResponse>();
    expect(deploy.missing).toEqual([sha256Of(secret)]);
    expect((await publish(client, site.id, deploy.id)).statusCode).toBe(409);
  });

  it("checks the plan's limits against the manifest before any byte", async () => {
    const { client, user } = await signedInClient(server);
    const site = await emptySite(client);
    const big = 50 * 1024 * 1024 + 1;
    const tooLarge = await openDeploy(client, site.id, { files: [{ path: "video/big.mp4", sha256: "a".repeat(64), size: big }] });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toMatchObject({ code: "file_too_large", message: "File too large" });
    expect(tooLarge.json().error.detail).toBe(DEPLOY_TEXT.fileTooLarge("video/big.mp4", big, 50 * 1024 * 1024));
    expect(tooLarge.json().error.detail).toContain("52,428,801 bytes");

    const files = Array.from({ length: 11 }, (_, i) => ({ path: `part${i}.bin`, sha256: sha256Of(`part ${i}`), size: 50 * 1024 * 1024 }));
    const full = await openDeploy(client, site.id, { files });
    expect(full.statusCode).toBe(413);
    expect(full.json().error.detail).toBe(DEPLOY_TEXT.storageExceeded(0, 11 * 50 * 1024 * 1024, 500 * 1024 * 1024));
    expect(await server.ctx.db.select().from(deploys).where(eq(deploys.site_id, site.id))).toEqual([]);

    // Pro's limits are Pro's.
    await setPlan(server, user.id, "pro");
    expect((await openDeploy(client, site.id, { files })).statusCode).toBe(201);
  });

  it("checks the quota again when publishing, and leaves the deploy open when it is refused", async () => {
    const { client, user } = await signedInClient(server);
    const site = await emptySite(client);
    await deployFiles(client, site.id, SITE);
    const next = [{ path: "index.html", content: `<h1>Heavier (${driver})</h1>` }];
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(next) })).json<DeployResponse>();
    expect((await putFile(client, site.id, deploy.id, next[0]!.content)).statusCode).toBe(204);
    // Meanwhile the account filled up (another upload, say): the publish's own check refuses it.
    await server.ctx.db
      .update(users)
      .set({ storageUsed: 500 * 1024 * 1024 - 5 })
      .where(eq(users.id, user.id));
    const refused = await publish(client, site.id, deploy.id);
    expect([refused.statusCode, refused.json().error.code]).toEqual([413, "quota_exceeded"]);
    expect((await client.get(`/api/sites/${site.id}/deploys/${deploy.id}`)).json<DeployResponse>()).toMatchObject({
      status: "uploading",
      deployment: null,
    });
    expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ live_version: 1 });
    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>Home</h1>");
    // Room again: the same deploy publishes.
    await server.ctx.db.update(users).set({ storageUsed: 0 }).where(eq(users.id, user.id));
    expect((await publish(client, site.id, deploy.id)).json<DeployResponse>()).toMatchObject({ status: "published", deployment: { version: 2 } });
  });

  it("publishes a deploy once when two publishes race", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(SITE) })).json<DeployResponse>();
    const tar = digestTarOf(SITE);
    const uploads = await Promise.all([postTar(client, site.id, deploy.id, tar), postTar(client, site.id, deploy.id, tar)]);
    expect(uploads.map((u) => u.statusCode)).toEqual([200, 200]);
    const [one, two] = await Promise.all([publish(client, site.id, deploy.id), publish(client, site.id, deploy.id)]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(one.json<DeployResponse>().deployment!.id).toBe(two.json<DeployResponse>().deployment!.id);
    expect((await client.get(`/api/sites/${site.id}/deployments`)).json().deployments).toHaveLength(1);
  });

  it("refuses every change to a deleted site's deploys, and another user's deploy is not found", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(SITE) })).json<DeployResponse>();
    const other = await signedInClient(server);
    const theirs = await emptySite(other.client);
    expect((await other.client.get(`/api/sites/${theirs.id}/deploys/${deploy.id}`)).json().error.code).toBe("deploy_not_found");
    expect((await putFile(other.client, theirs.id, deploy.id, SITE[0]!.content)).statusCode).toBe(404);
    expect((await client.get(`/api/sites/${site.id}/deploys/not-an-id`)).statusCode).toBe(404);

    expect((await client.delete(`/api/sites/${site.id}`)).statusCode).toBe(200);
    for (const response of [
      await openDeploy(client, site.id, { files: manifestOf(SITE) }),
      await putFile(client, site.id, deploy.id, SITE[0]!.content),
      await postTar(client, site.id, deploy.id, digestTarOf(SITE)),
      await publish(client, site.id, deploy.id),
    ])
      expect([response.statusCode, response.json().error.code]).toEqual([409, "site_deleted"]);
    expect((await client.get(`/api/sites/${site.id}/deploys/${deploy.id}`)).statusCode).toBe(200);
  });

  it("creates sites from JSON within the account's cap, from the pool, leaving the wizard's reservation alone", { timeout: 90_000 }, async () => {
    const { client } = await signedInClient(server);
    const reserved = (await client.post("/api/subdomains/reserve", {})).json<{ subdomain: string }>().subdomain;
    const made = await emptySite(client, "From the CLI");
    expect(made.subdomain).not.toBe(reserved);
    expect((await client.post("/api/subdomains/reserve", {})).json<{ subdomain: string }>().subdomain).toBe(reserved);
    expect((await client.post("/api/sites", { name: "" })).json().error.message).toBe("Site name is required");
    // The wizard names its reservation (it showed the address before the site existed), once.
    const wizard = await client.post("/api/sites", { name: "Dropped folder", subdomain: reserved });
    expect(wizard.statusCode, wizard.body).toBe(201);
    expect(wizard.json<SiteResponse>()).toMatchObject({ subdomain: reserved, status: "pending", file_count: 0 });
    for (const subdomain of [reserved, made.subdomain, "zzzzz"]) {
      const refused = await client.post("/api/sites", { name: "Again", subdomain });
      expect([refused.statusCode, refused.json().error.code], subdomain).toEqual([409, "subdomain_not_reserved"]);
    }
    const other = await signedInClient(server);
    const theirs = (await other.client.post("/api/subdomains/reserve", {})).json<{ subdomain: string }>().subdomain;
    expect((await client.post("/api/sites", { name: "Theirs", subdomain: theirs })).statusCode).toBe(409);
    expect((await other.client.post("/api/sites", { name: "Mine", subdomain: theirs })).statusCode).toBe(201);
    const capped = await getTestServer(driver, { env: { BERTH_MAX_SITES_PER_ACCOUNT: "1" } });
    try {
      const owner = await signedInClient(capped);
      expect((await owner.client.post("/api/sites", { name: "One" })).statusCode).toBe(201);
      const second = await owner.client.post("/api/sites", { name: "Two" });
      expect([second.statusCode, second.json().error.code]).toEqual([409, "site_limit_reached"]);
    } finally {
      await capped.close();
    }
  });

  it("refuses unsafe and duplicate paths, and a path that is both a file and a folder", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const entry = (path: string, content = path) => ({ path, sha256: sha256Of(content), size: bytesOf(content).length });
    const cases: [unknown[], string][] = [
      [[entry("../x")], 'The path contains "." or "..": ../x'],
      [[entry("/etc/passwd")], "The path must be relative, not start with /: /etc/passwd"],
      [[entry("a\\b")], "The path contains a backslash: a\\b"],
      [[entry("caf\u00e9.html", "1"), entry("cafe\u0301.html", "2")], DEPLOY_TEXT.duplicatePath("caf\u00e9.html")],
      [[entry("docs"), entry("docs/index.html")], DEPLOY_TEXT.fileAndFolder("docs")],
      [[entry("a.html", "same"), { ...entry("b.html", "same"), size: 99 }], DEPLOY_TEXT.sizeConflict(sha256Of("same"))],
      [[{ path: "a.html", sha256: "A".repeat(64), size: 1 }], DEPLOY_TEXT.badDigest],
      [[], DEPLOY_TEXT.emptyManifest],
    ];
    for (const [files, message] of cases) {
      const response = await client.post(`/api/sites/${site.id}/deploys`, { files });
      expect([response.statusCode, response.json().error.message], JSON.stringify(files)).toEqual([400, message]);
    }
    expect(
      (await client.request("POST", `/api/sites/${site.id}/deploys`, { headers: { "content-type": "text/plain" }, payload: Buffer.from("x") }))
        .statusCode,
    ).toBe(415);
  });

  it("fails a publish with a bad _redirects line in the same words, and leaves the live site as it was", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    await deployFiles(client, site.id, SITE);
    const bad = [...SITE, { path: "_redirects", content: "/old /new 999\n" }];
    const { published } = await deployFiles(client, site.id, bad);
    expect(published.status).toBe("failed");
    expect(published.error).toMatch(/line 1/);
    expect(published.deployment).toMatchObject({ version: 2, status: "failed", deployment_url: null, error: published.error });
    // The dashboard's publish of the same file fails with the same text.
    const other = await createSiteWith(client, htmlFile());
    const viaFiles = await postMultipart(
      client,
      `/api/sites/${other.id}/files`,
      {},
      { name: "_redirects", content: "/old /new 999\n", type: "text/plain" },
    );
    expect(viaFiles.json().deployment).toMatchObject({ status: "failed", error: published.error });
    expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ live_version: 1 });
    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>Home</h1>");
  });
});

describe.each(DRIVERS)("drafts, archives and the sweep (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const stored = async (sha: string) => (await server.ctx.blobs.stat(sha)) !== undefined;

  it("serves a draft on its version host only, until it is promoted", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    await deployFiles(client, site.id, SITE);
    const next = [{ path: "index.html", content: "<h1>Next</h1>" }];
    const { published } = await deployFiles(client, site.id, next, { draft: true, message: "Preview" });
    expect(published).toMatchObject({ status: "published", draft: true, deployment: { version: 2, status: "success" } });
    const draftHost = `${site.subdomain}--v2.localhost:8080`;
    expect(published.deployment!.deployment_url).toBe(`http://${draftHost}/`);
    expect((await server.edge.get(draftHost, "/")).text).toBe("<h1>Next</h1>");
    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>Home</h1>");
    // Nothing of the live site moved: pointer, working tree, listing.
    expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ live_version: 1, file_count: 3 });
    const listed = (await client.get(`/api/sites/${site.id}/deployments`)).json<{ deployments: DeploymentResponse[] }>().deployments;
    expect(listed.map((d) => [d.version, d.draft, d.is_live, d.note])).toEqual([
      [2, true, false, "Preview"],
      [1, false, true, "Deployed through the API"],
    ]);

    // Only a draft can be promoted; an older version is rollback's.
    const older = await client.post(`/api/sites/${site.id}/deployments/${listed[1]!.id}/promote`, {});
    expect(older.statusCode).toBe(200); // the live one: a retried promotion
    const promoted = await client.post(`/api/sites/${site.id}/deployments/${published.deployment!.id}/promote`, {});
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json<DeploymentResponse>()).toMatchObject({ version: 2, is_live: true, draft: false });
    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>Next</h1>");
    expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ live_version: 2, file_count: 1 });
    expect((await client.post(`/api/sites/${site.id}/deployments/${published.deployment!.id}/promote`, {})).statusCode).toBe(200);
    const back = await client.post(`/api/sites/${site.id}/deployments/${listed[1]!.id}/promote`, {});
    expect([back.statusCode, back.json().error.message]).toEqual([409, DEPLOY_TEXT.notADraft]);
  });

  it("serves a first deploy made as a draft nowhere but its version host", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    await deployFiles(client, site.id, SITE, { draft: true });
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`, "/")).text).toBe("<h1>Home</h1>");
    expect((await server.edge.get(hostOf(site.url), "/")).status).toBe(404);
    expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ status: "pending", live_version: null });
  });

  it("deletes a deploy never published once it expires, and then the files only it held", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const files = [{ path: "index.html", content: `<p>never published (${driver})</p>` }];
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(files) })).json<DeployResponse>();
    expect((await putFile(client, site.id, deploy.id, files[0]!.content)).statusCode).toBe(204);
    const sha = sha256Of(files[0]!.content);
    expect(await server.ctx.db.select().from(deployUploads).where(eq(deployUploads.deploy_id, deploy.id))).toHaveLength(1);

    // While it is open the file is kept, however old its bytes.
    const old = new Date(Date.now() - 3 * server.ctx.env.orphanGraceMs);
    utimesSync(path.join(server.ctx.env.dataDir, "blobs", sha.slice(0, 2), sha.slice(2, 4), sha), old, old);
    const beforeExpiry = new Date(Date.parse(deploy.expires_at) - 60_000);
    expect((await sweepOrphans(server.ctx, beforeExpiry)).deploys).toBe(0);
    expect(await stored(sha)).toBe(true);

    const afterExpiry = new Date(Date.parse(deploy.expires_at) + 2 * server.ctx.env.orphanGraceMs);
    const swept = await sweepOrphans(server.ctx, afterExpiry);
    expect(swept.deploys).toBeGreaterThanOrEqual(1);
    expect(await server.ctx.db.select().from(deploys).where(eq(deploys.id, deploy.id))).toEqual([]);
    expect(await stored(sha)).toBe(false);
    expect((await client.get(`/api/sites/${site.id}/deploys/${deploy.id}`)).statusCode).toBe(404);
  });
});

describe.each(DRIVERS)("tars and archives (%s)", (driver) => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await getTestServer(driver);
    client = (await signedInClient(server)).client;
  });
  afterAll(() => server.close());

  const stored = async (sha: string) => (await server.ctx.blobs.stat(sha)) !== undefined;
  const fresh = (label: string): FileSpec[] => [
    { path: "index.html", content: `<h1>${label} (${driver})</h1>` },
    { path: "app.js", content: `console.log(${JSON.stringify(label)})` },
  ];

  const hostile: [string, (files: FileSpec[]) => Buffer, RegExp | string][] = [
    ["a symbolic link", (files) => tarOf([{ name: sha256Of(files[0]!.content), type: "2", linkname: "/etc/passwd" }]), /symbolic link/],
    ["a hard link", (files) => tarOf([{ name: sha256Of(files[0]!.content), type: "1", linkname: "x" }]), /hard link/],
    ["a folder", () => tarOf([{ name: "docs/", type: "5" }]), /device, pipe or socket|not allowed/],
    ["a path instead of a digest", () => tarOf([{ name: "../../etc/passwd", content: "root" }]), DEPLOY_TEXT.notInManifest("../../etc/passwd")],
    ["a digest not in the manifest", () => tarOf([{ name: sha256Of("other"), content: "other" }]), DEPLOY_TEXT.notInManifest(sha256Of("other"))],
    [
      "bytes that are not the digest's",
      (files) => tarOf([{ name: sha256Of(files[0]!.content), content: "x".repeat(bytesOf(files[0]!.content).length) }]),
      /do not match/,
    ],
    [
      "a size other than the manifest's",
      (files) => tarOf([{ name: sha256Of(files[0]!.content), content: "short" }]),
      /should be \d+ bytes, but 5 were sent/,
    ],
    [
      "a damaged header",
      (files) => {
        const tar = digestTarOf(files);
        tar[20] = tar[20]! ^ 1;
        return tar;
      },
      /checksum/,
    ],
    ["an archive cut short", (files) => digestTarOf(files).subarray(0, 700), /cut short/],
    ["no end marker", (files) => digestTarOf(files.slice(0, 1)).subarray(0, 1024), /no end marker/],
    [
      "the same file twice",
      (files) => tarOf([files[0]!, files[0]!].map((f) => ({ name: sha256Of(f.content), content: f.content }))),
      /more than once/,
    ],
    ["garbage", () => Buffer.from("this is not a tar archive at all".repeat(40)), /not a ustar archive|checksum|invalid/],
  ];

  it.each(hostile)("refuses a tar with %s, and keeps none of it", async (_name, build, message) => {
    const site = await emptySite(client);
    // One good file first: it must not stay behind either.
    const files = fresh(_name);
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(files) })).json<DeployResponse>();
    const tar = Buffer.concat([tarEntry({ name: sha256Of(files[1]!.content), content: files[1]!.content }), build(files)]);
    const response = await postTar(client, site.id, deploy.id, tar);
    expect(response.statusCode, response.body).toBe(400);
    const error = response.json<{ error: { message: string; detail?: string } }>().error;
    expect(`${error.message} ${error.detail ?? ""}`).toMatch(message);
    expect(await stored(sha256Of(files[1]!.content))).toBe(false);
    expect(await server.ctx.db.select().from(deployUploads).where(eq(deployUploads.deploy_id, deploy.id))).toEqual([]);
    expect((await client.get(`/api/sites/${site.id}/deploys/${deploy.id}`)).json<DeployResponse>().missing).toHaveLength(2);
  });

  it("takes a tar only as application/x-tar", async () => {
    const site = await emptySite(client);
    const files = fresh("type");
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(files) })).json<DeployResponse>();
    const response = await client.request("POST", `/api/sites/${site.id}/deploys/${deploy.id}/files`, {
      headers: { "content-type": "application/octet-stream" },
      payload: digestTarOf(files),
    });
    expect([response.statusCode, response.json().error.message]).toEqual([415, DEPLOY_TEXT.tarRequired]);
  });

  it("deploys a zip in one request", async () => {
    const site = await emptySite(client);
    const zip = await zipOf([
      { name: "my-site/index.html", data: "<h1>Zipped</h1>" },
      { name: "my-site/css/a.css", data: "a{}" },
      { name: "my-site/images/" },
    ]);
    const response = await client.request("POST", `/api/sites/${site.id}/deploys?message=From%20curl`, {
      headers: { "content-type": "application/zip" },
      payload: zip,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<DeployResponse>()).toMatchObject({ status: "published", message: "From curl", file_count: 2, deployment: { version: 1 } });
    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>Zipped</h1>");
    expect((await server.edge.get(hostOf(site.url), "/css/a.css")).text).toBe("a{}");
    // Its empty folder is kept, as a zip uploaded in the dashboard keeps it.
    const top = (await client.get(`/api/sites/${site.id}/files`)).json<{ files: { file_path: string }[] }>().files.map((f) => f.file_path);
    expect(top).toEqual(["css", "images", "index.html"]);
  });

  it("deploys a .tar.gz made by GNU tar in one request, long names and all, as a draft when asked", async () => {
    const site = await emptySite(client);
    const dir = mkdtempSync(path.join(os.tmpdir(), "berth-tar-"));
    const long = `${"deep/".repeat(30)}page.html`;
    mkdirSync(path.join(dir, path.dirname(long)), { recursive: true });
    writeFileSync(path.join(dir, "index.html"), "<h1>Tarred</h1>");
    writeFileSync(path.join(dir, long), "<p>far down</p>");
    writeFileSync(path.join(dir, "caf\u00e9.html"), "<p>caf\u00e9</p>");
    for (const format of ["gnu", "posix"]) {
      const archive = execFileSync("tar", [`--format=${format}`, "-czf", "-", "-C", dir, "."]);
      const response = await client.request("POST", `/api/sites/${site.id}/deploys?draft=true`, {
        headers: { "content-type": "application/gzip" },
        payload: archive,
      });
      expect(response.statusCode, response.body).toBe(201);
      const deploy = response.json<DeployResponse>();
      expect(deploy).toMatchObject({ status: "published", draft: true, file_count: 3 });
      const host = hostOf(deploy.deployment!.deployment_url!);
      expect((await server.edge.get(host, "/")).text).toBe("<h1>Tarred</h1>");
      // Clean URLs: the edge serves page.html at /page.
      expect((await server.edge.get(host, `/${long.replace(/\.html$/, "")}`)).text).toBe("<p>far down</p>");
      expect((await server.edge.get(host, `/${encodeURIComponent("caf\u00e9")}`)).text).toBe("<p>caf\u00e9</p>");
    }
    expect((await server.edge.get(hostOf(site.url), "/")).status).toBe(404);
  });

  const hostileTarGz: [string, Buffer, RegExp][] = [
    ["traversal", tarGzOf([{ name: "../escape.html", content: "x" }]), /unsafe path/],
    ["an absolute path", tarGzOf([{ name: "/etc/cron.d/x", content: "x" }]), /unsafe path/],
    ["a traversal in a pax path", tarGzOf([paxEntry({ path: "a/../../x" }), { name: "innocent", content: "x" }]), /unsafe path/],
    ["a symbolic link", tarGzOf([{ name: "index.html", type: "2", linkname: "/etc/passwd" }]), /symbolic link/],
    ["a device", tarGzOf([{ name: "dev", type: "3" }]), /device, pipe or socket/],
    [
      "a duplicate",
      tarGzOf([
        { name: "a.html", content: "1" },
        { name: "./a.html", content: "2" },
      ]),
      /more than once/,
    ],
    ["a damaged gzip stream", Buffer.concat([tarGzOf([{ name: "a.html", content: "1" }]).subarray(0, 30)]), /not a valid tar/],
    [
      "a file the header says is larger than the plan allows",
      gzipSync(tarHeader({ name: "big.bin", size: 60 * 1024 * 1024 })),
      /Maximum file size is 50MB/,
    ],
  ];

  it.each(hostileTarGz)("refuses a .tar.gz with %s and publishes nothing", async (_name, archive, message) => {
    const site = await emptySite(client);
    const response = await client.request("POST", `/api/sites/${site.id}/deploys`, {
      headers: { "content-type": "application/x-gzip" },
      payload: archive,
    });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    const error = response.json<{ error: { message: string; detail?: string } }>().error;
    expect(`${error.message} ${error.detail ?? ""}`).toMatch(message);
    expect(await server.ctx.db.select().from(deploys).where(eq(deploys.site_id, site.id))).toEqual([]);
    expect((await client.get(`/api/sites/${site.id}/deployments`)).json().deployments).toEqual([]);
  });
});
