// File history through the API: versions, restores (file, folder, deleted file, the site at a
// moment), downloads of old versions and comparisons, on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { setPlan, signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart } from "../../test/sites";
import { sha256Of } from "../../test/deploys";
import { HISTORY_TEXT, type CompareResponse, type DeletedFilesResponse, type HistoryResponse, type RestoreResponse } from "../../../common/history";
import { FREE_PLAN } from "../../plans/builtIn";
import type { DeploymentResponse, SiteFileResponse, SiteResponse } from "../../../common/sites";

const KEPT = FREE_PLAN.deploymentsKept;
const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

describe.each(DRIVERS)("file history (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  async function upload(client: TestClient, site: SiteResponse, content: string, name = "index.html", parent?: string) {
    const response = await postMultipart(client, `/api/sites/${site.id}/files`, parent ? { parent } : {}, htmlFile(content, name));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ deployment: DeploymentResponse }>().deployment;
  }

  const deployments = async (client: TestClient, site: SiteResponse) =>
    (await client.get(`/api/sites/${site.id}/deployments`)).json<{ deployments: DeploymentResponse[] }>().deployments;
  const byVersion = async (client: TestClient, site: SiteResponse, version: number) =>
    (await deployments(client, site)).find((d) => d.version === version)!;
  const files = async (client: TestClient, site: SiteResponse, parent = "") =>
    (await client.get(`/api/sites/${site.id}/files?parent=${parent}`)).json<{ files: SiteFileResponse[] }>().files;
  const history = async (client: TestClient, site: SiteResponse, query = "") =>
    (await client.get(`/api/sites/${site.id}/history${query}`)).json<HistoryResponse>();
  /** The working tree's bytes of a file, by its download. */
  async function contentOf(client: TestClient, site: SiteResponse, path: string): Promise<string | undefined> {
    const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    const file = (await files(client, site, parent)).find((f) => f.file_path === path);
    if (!file) return undefined;
    return (await client.get(`/api/sites/${site.id}/files/${file.id}/download`)).body;
  }
  const restore = (client: TestClient, site: SiteResponse, body: Record<string, unknown>) =>
    client.post(`/api/sites/${site.id}/history/restore`, body);

  it("lists the versions in which a file changed, and restores one as a new version", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>one</p>"));
    await upload(client, site, "<p>about</p>", "about.html");
    await upload(client, site, "<p>three</p>");

    const index = await history(client, site, "?path=index.html");
    expect(index.versions.map((v) => [v.version, v.change, v.is_current])).toEqual([
      [3, "changed", true],
      [1, "added", false],
    ]);
    expect(index).toMatchObject({ path: "index.html", folder: false, versions_kept: KEPT });
    expect(index.versions[1]).toMatchObject({ size: "<p>one</p>".length, file_count: 1, content_type: "text/html; charset=utf-8" });
    expect(index.versions[1]!.url).toBe(`${site.url.replace(`//${site.subdomain}.`, `//${site.subdomain}--v1.`)}index.html`);
    // The whole site's history: every version changed something.
    expect((await history(client, site)).versions.map((v) => v.version)).toEqual([3, 2, 1]);

    const first = index.versions[1]!;
    const restored = await restore(client, site, { deploymentId: first.deployment_id, path: "index.html" });
    expect(restored.statusCode, restored.body).toBe(201);
    const body = restored.json<RestoreResponse>();
    expect(body).toMatchObject({
      restored_version: 1,
      deployment: { version: 4, status: "success", is_live: true, note: "Restored index.html from version 1" },
    });
    expect(await contentOf(client, site, "index.html")).toBe("<p>one</p>");
    expect(await contentOf(client, site, "about.html")).toBe("<p>about</p>");
    // The edge serves the restored file at once.
    expect((await server.edge.get(hostOf(site.url))).text).toBe("<p>one</p>");
    const after = await history(client, site, "?path=index.html");
    expect(after.versions.map((v) => [v.version, v.is_current])).toEqual([
      [4, true],
      [3, false],
      [1, false],
    ]);
  });

  it("downloads a file as an old version had it, as an attachment that cannot run", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<script>alert(1)</script>"));
    await upload(client, site, "<p>new</p>");
    const v1 = await byVersion(client, site, 1);
    const response = await client.get(`/api/sites/${site.id}/deployments/${v1.id}/download?path=index.html`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("<script>alert(1)</script>");
    expect(response.headers["content-disposition"]).toContain('attachment; filename="index.html"');
    expect(response.headers["content-type"]).toBe("application/octet-stream");
    expect(response.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    const missing = await client.get(`/api/sites/${site.id}/deployments/${v1.id}/download?path=nope.html`);
    expect(missing.statusCode).toBe(404);
    expect((await client.get(`/api/sites/${site.id}/deployments/${v1.id}/download?path=../x`)).statusCode).toBe(400);
  });

  it("shows deleted files and restores one", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>home</p>"));
    await upload(client, site, "<p>old page</p>", "old.html");
    const old = (await files(client, site)).find((f) => f.filename === "old.html")!;
    expect((await client.delete(`/api/sites/${site.id}/files/${old.id}`)).statusCode).toBe(200);

    const deleted = (await client.get(`/api/sites/${site.id}/history/deleted`)).json<DeletedFilesResponse>().files;
    expect(deleted).toEqual([expect.objectContaining({ path: "old.html", version: 2, size: "<p>old page</p>".length, deleted_in_version: 3 })]);
    const restored = await restore(client, site, { deploymentId: deleted[0]!.deployment_id, path: "old.html" });
    expect(restored.statusCode, restored.body).toBe(201);
    expect(await contentOf(client, site, "old.html")).toBe("<p>old page</p>");
    expect((await client.get(`/api/sites/${site.id}/history/deleted`)).json<DeletedFilesResponse>().files).toEqual([]);
    // Back after a deletion counts as added.
    expect((await history(client, site, "?path=old.html")).versions.map((v) => [v.version, v.change])).toEqual([
      [4, "added"],
      [2, "added"],
    ]);
  });

  it("restores a folder's whole contents as a version had them, and nothing outside it", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>home</p>"));
    await upload(client, site, "<p>a1</p>", "a.html", "docs");
    const kept = await upload(client, site, "<p>b1</p>", "b.html", "docs");
    await upload(client, site, "<p>a2</p>", "a.html", "docs");
    const b = (await files(client, site, "docs")).find((f) => f.filename === "b.html")!;
    await client.delete(`/api/sites/${site.id}/files/${b.id}`);
    await upload(client, site, "<p>c</p>", "c.html", "docs");
    await upload(client, site, "<p>home 2</p>");

    const folder = await history(client, site, "?path=docs&folder=true");
    expect(folder.versions.map((v) => [v.version, v.file_count, v.change])).toEqual([
      [6, 2, "changed"],
      [5, 1, "changed"],
      [4, 2, "changed"],
      [3, 2, "changed"],
      [2, 1, "added"],
    ]);
    expect(folder.versions[0]!.is_current).toBe(true);

    const restored = await restore(client, site, { deploymentId: kept.id, path: "docs", folder: true });
    expect(restored.statusCode, restored.body).toBe(201);
    expect(restored.json<RestoreResponse>().deployment.note).toBe("Restored folder docs from version 3");
    expect((await files(client, site, "docs")).map((f) => f.filename)).toEqual(["a.html", "b.html"]);
    expect(await contentOf(client, site, "docs/a.html")).toBe("<p>a1</p>");
    expect(await contentOf(client, site, "index.html")).toBe("<p>home 2</p>");
  });

  it("compares two versions, with a line diff of a text file", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("one\ntwo\nthree\n"));
    await upload(client, site, "gone", "gone.html");
    const from = await byVersion(client, site, 2);
    await upload(client, site, "one\n2\nthree\n");
    const doomed = (await files(client, site)).find((f) => f.filename === "gone.html")!;
    await client.delete(`/api/sites/${site.id}/files/${doomed.id}`);
    await upload(client, site, "new", "new.html");
    const to = await byVersion(client, site, 5);

    const compared = await client.get(`/api/sites/${site.id}/compare?from=${from.id}&to=${to.id}&path=index.html`);
    expect(compared.statusCode, compared.body).toBe(200);
    const body = compared.json<CompareResponse>();
    expect(body).toMatchObject({
      from: { version: 2 },
      to: { version: 5 },
      added: [{ path: "new.html", size: 3 }],
      changed: [{ path: "index.html", from_size: 14, to_size: 12, text: true }],
      removed: [{ path: "gone.html", size: 4 }],
    });
    expect(body.diff).toMatchObject({ path: "index.html", kind: "text", truncated: false });
    expect(body.diff!.hunks[0]!.lines.map((l) => `${l.op} ${l.text}`)).toEqual(["same one", "remove two", "add 2", "same three"]);
    // No ids: the live version against the one before.
    const latest = (await client.get(`/api/sites/${site.id}/compare`)).json<CompareResponse>();
    expect([latest.from.version, latest.to.version, latest.added.map((a) => a.path)]).toEqual([4, 5, ["new.html"]]);
    // A path that did not change has no diff to give.
    expect((await client.get(`/api/sites/${site.id}/compare?from=${from.id}&to=${to.id}&path=nothing.html`)).statusCode).toBe(404);
  });

  it("gives another user's site the usual 404, and another site's version the 404 of one not kept", async () => {
    const owner = await signedInClient(server);
    const site = await createSiteWith(owner.client, htmlFile("<p>private</p>"));
    const v1 = await byVersion(owner.client, site, 1);
    const stranger = await signedInClient(server);
    const own = await createSiteWith(stranger.client, htmlFile("<p>mine</p>"));
    for (const url of [
      `/api/sites/${site.id}/history?path=index.html`,
      `/api/sites/${site.id}/history/deleted`,
      `/api/sites/${site.id}/history/live-periods`,
      `/api/sites/${site.id}/deployments/${v1.id}/download?path=index.html`,
      `/api/sites/${site.id}/compare`,
    ]) {
      const response = await stranger.client.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain("private");
    }
    expect((await restore(stranger.client, site, { deploymentId: v1.id, path: "index.html" })).statusCode).toBe(404);
    // The owner's version id on the stranger's own site: not one of its versions.
    const crossed = await restore(stranger.client, own, { deploymentId: v1.id, path: "index.html" });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().error.code).toBe("version_not_kept");
    const download = await stranger.client.get(`/api/sites/${own.id}/deployments/${v1.id}/download?path=index.html`);
    expect(download.statusCode).toBe(404);
    expect(download.body).not.toContain("private");
    expect((await deployments(owner.client, site)).length).toBe(1);
  });

  it("refuses a version that was pruned with a clear error, and publishes nothing", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>v1</p>"));
    const v1 = await byVersion(client, site, 1);
    for (let n = 2; n <= KEPT + 1; n++) await upload(client, site, `<p>v${n}</p>`);
    const before = await deployments(client, site);
    expect(before.map((d) => d.version)).not.toContain(1);
    const response = await restore(client, site, { deploymentId: v1.id, path: "index.html" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ code: "version_not_kept", message: HISTORY_TEXT.versionNotKeptOnPlan(KEPT, "Pro") });
    expect(await deployments(client, site)).toEqual(before);
  });

  it("refuses a version whose stored bytes are missing, and publishes nothing", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>only in version 1</p>"));
    const v1 = await byVersion(client, site, 1);
    await upload(client, site, "<p>now</p>");
    await server.ctx.blobs.delete(sha256Of("<p>only in version 1</p>"));
    const before = await deployments(client, site);
    const response = await restore(client, site, { deploymentId: v1.id, path: "index.html" });
    expect(response.statusCode).toBe(410);
    expect(response.json().error).toMatchObject({ code: "content_missing", message: HISTORY_TEXT.contentMissing });
    expect(await deployments(client, site)).toEqual(before);
    expect(await contentOf(client, site, "index.html")).toBe("<p>now</p>");
  });

  it("refuses a restore that a file now standing in the way blocks", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<p>home</p>"));
    const docs = await upload(client, site, "<p>a</p>", "a.html", "docs");
    const folder = (await files(client, site)).find((f) => f.filename === "docs")!;
    await client.delete(`/api/sites/${site.id}/files/${folder.id}`);
    await upload(client, site, "<p>a file named docs</p>", "docs");
    const response = await restore(client, site, { deploymentId: docs.id, path: "docs/a.html" });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("path_conflict");
  });

  describe("restoring the site as it was at a moment", () => {
    const restoreAt = (client: TestClient, site: SiteResponse, at: Date) =>
      client.post(`/api/sites/${site.id}/history/restore-at`, { at: at.toISOString() });

    it("is Pro's: Free gets 403 pro_required and nothing changes", async () => {
      const { client } = await signedInClient(server);
      const site = await createSiteWith(client, htmlFile("<p>one</p>"));
      await pause();
      const response = await restoreAt(client, site, new Date());
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject({ code: "pro_required", message: "Restoring a site as it was at a moment requires a Pro plan." });
      expect((await deployments(client, site)).length).toBe(1);
    });

    it("restores the files that were live then, rollbacks included", async () => {
      const { client, user } = await signedInClient(server);
      await setPlan(server, user.id, "pro");
      const site = await createSiteWith(client, htmlFile("<p>A</p>"));
      await pause();
      const whileA = new Date();
      await pause();
      await upload(client, site, "<p>B</p>");
      await upload(client, site, "<p>extra</p>", "extra.html");
      await pause();
      const whileB = new Date();
      await pause();
      const v1 = await byVersion(client, site, 1);
      expect((await client.post(`/api/sites/${site.id}/deployments/${v1.id}/rollback`, {})).statusCode).toBe(200);
      await pause();
      const afterRollback = new Date();
      await pause();
      await upload(client, site, "<p>C</p>");

      const periods = (await client.get(`/api/sites/${site.id}/history/live-periods`)).json<{
        periods: { version: number; until: string | null }[];
      }>().periods;
      expect(periods.map((p) => p.version)).toEqual([4, 1, 3, 2, 1]);
      expect(periods[0]!.until).toBeNull();

      const atB = await restoreAt(client, site, whileB);
      expect(atB.statusCode, atB.body).toBe(201);
      expect(atB.json<RestoreResponse>()).toMatchObject({ restored_version: 3, deployment: { version: 5, is_live: true } });
      expect(await contentOf(client, site, "index.html")).toBe("<p>B</p>");
      expect(await contentOf(client, site, "extra.html")).toBe("<p>extra</p>");

      // After the rollback version 1 was live again, though version 3 was the newest.
      const rolledBack = await restoreAt(client, site, afterRollback);
      expect(rolledBack.json<RestoreResponse>().restored_version).toBe(1);
      expect(await contentOf(client, site, "index.html")).toBe("<p>A</p>");
      expect(await contentOf(client, site, "extra.html")).toBeUndefined();
      expect((await restoreAt(client, site, whileA)).json<RestoreResponse>().restored_version).toBe(1);

      const before = await restoreAt(client, site, new Date(Date.parse(site.created_at) - 60_000));
      expect(before.statusCode).toBe(409);
      expect(before.json().error.message).toBe(HISTORY_TEXT.restoreAtNothing);
      const future = await restoreAt(client, site, new Date(Date.now() + 60_000));
      expect(future.statusCode).toBe(400);
      expect((await client.post(`/api/sites/${site.id}/history/restore-at`, { at: "yesterday" })).statusCode).toBe(400);
    });
  });
});
