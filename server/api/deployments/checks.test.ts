// The publish check end to end through the API, on both databases: a publish queues it, the
// worker's run stores findings and notifies, the results are the owner's alone, the two fixes
// publish new versions that the next check finds clean, and a worker that dies mid-check loses
// nothing.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeploymentCheckResponse } from "../../../common/checks";
import type { DeploymentListResponse, DeploymentResponse } from "../../../common/sites";
import { claimDueChecks } from "../../db/repositories/deploymentChecks";
import { deploymentChecks, notifications } from "../../db/schema";
import { runDueChecks } from "../../services/runDeploymentChecks";
import { ownerWithSite, signedInClient } from "../../test/factories";
import { deployFiles } from "../../test/deploys";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";

const PAGE = [
  "<!doctype html><title>Home</title>",
  '<link rel="stylesheet" href="css/Site.css">',
  '<img src="images/logo.png">',
  '<a href="missing.html">x</a>',
  '<script src="http://cdn.example.com/lib.js"></script>',
].join("\n");

describe.each(DRIVERS)("publish checks (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(async () => {
    await server.close();
  });

  const runAll = async () => {
    while ((await runDueChecks(server.ctx)) > 0);
  };
  const deploymentsOf = async (client: TestClient, siteId: string) =>
    (await client.get(`/api/sites/${siteId}/deployments`)).json<DeploymentListResponse>().deployments;
  const checkOf = (client: TestClient, siteId: string, deploymentId: string) => client.get(`/api/sites/${siteId}/deployments/${deploymentId}/check`);

  it("checks a dashboard upload after it went live, and fixes both problems in one click each", async () => {
    const { client, user, site } = await ownerWithSite(server, "free", [
      { name: "home.html", data: PAGE },
      { name: "css/site.css", data: "body { background: url(../images/Missing.png) }" },
      { name: "images/Logo.png", data: "png" },
    ]);
    const [v1] = await deploymentsOf(client, site.id);
    // Live at once; the check is queued, not run.
    expect(v1).toMatchObject({ status: "success", is_live: true, check: { status: "pending", problem_count: 0 } });

    await runAll();
    const check = (await checkOf(client, site.id, v1!.id)).json<DeploymentCheckResponse>();
    expect(check.status).toBe("done");
    expect(check.findings.map((f) => [f.kind, f.file, f.line, f.target])).toEqual([
      ["no_index", null, null, null],
      ["missing_file", "css/site.css", 1, "../images/Missing.png"],
      ["case_mismatch", "home.html", 2, "css/Site.css"],
      ["case_mismatch", "home.html", 3, "images/logo.png"],
      ["missing_file", "home.html", 4, "missing.html"],
      ["insecure_resource", "home.html", 5, "http://cdn.example.com/lib.js"],
    ]);
    expect(check.findings[0]!.candidates).toEqual(["home.html"]);
    expect(check.findings[2]!.hint).toContain("css/site.css");
    expect(check.fixes).toEqual({ case_renames: 2, index_candidates: ["home.html"], applicable: true });
    expect((await deploymentsOf(client, site.id))[0]!.check).toEqual({
      status: "done",
      problem_count: 6,
      counts: { no_index: 1, case_mismatch: 2, missing_file: 2, insecure_resource: 1 },
    });

    const notices = await server.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, user.id), eq(notifications.kind, "check_problems")));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: "check_problems", site_id: site.id, link: `/dashboard/sites/${site.id}?tab=deployments` });
    expect(notices[0]!.title).toBe("Test site: 6 problems found in version 1");

    const fixed = await client.post(`/api/sites/${site.id}/deployments/${v1!.id}/check/fix-case`, {});
    expect(fixed.statusCode, fixed.body).toBe(201);
    const v2 = fixed.json<DeploymentResponse>();
    expect(v2).toMatchObject({ version: 2, status: "success", is_live: true, note: "Fixed 2 case mismatches" });
    const files = (await client.get(`/api/sites/${site.id}/files?parent=images`)).json<{ files: Array<{ filename: string }> }>().files;
    expect(files.map((f) => f.filename)).toEqual(["logo.png"]);
    // The old version cannot be fixed again: fixes apply to what is live.
    expect((await client.post(`/api/sites/${site.id}/deployments/${v1!.id}/check/fix-case`, {})).statusCode).toBe(409);

    // The new version's check has not run yet: nothing to apply to.
    expect((await client.post(`/api/sites/${site.id}/deployments/${v2.id}/check/use-index`, { path: "home.html" })).statusCode).toBe(409);
    await runAll();
    const second = (await checkOf(client, site.id, v2.id)).json<DeploymentCheckResponse>();
    expect(second.counts).toEqual({ no_index: 1, missing_file: 2, insecure_resource: 1 });

    // Only a page the check offered becomes the index.
    expect((await client.post(`/api/sites/${site.id}/deployments/${v2.id}/check/use-index`, { path: "css/site.css" })).statusCode).toBe(409);
    const indexed = await client.post(`/api/sites/${site.id}/deployments/${v2.id}/check/use-index`, { path: "home.html" });
    expect(indexed.statusCode, indexed.body).toBe(201);
    expect(indexed.json<DeploymentResponse>()).toMatchObject({ version: 3, is_live: true, note: "Used home.html as the index page" });
    await runAll();
    const third = (await checkOf(client, site.id, indexed.json<DeploymentResponse>().id)).json<DeploymentCheckResponse>();
    // index.html is a copy of home.html, so its problems are listed under both names.
    expect(third.counts).toEqual({ missing_file: 3, insecure_resource: 2 });
    const root = (await client.get(`/api/sites/${site.id}/files`)).json<{ files: Array<{ filename: string }> }>().files.map((f) => f.filename);
    expect(root).toEqual(expect.arrayContaining(["home.html", "index.html"]));
  });

  it("checks deploys through the API, and notifies nothing when nothing is wrong", async () => {
    const { client, user, site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<p>one</p>" }]);
    const { published } = await deployFiles(client, site.id, [
      { path: "index.html", content: '<link rel=stylesheet href="/app.css"><img src="img/a.png">' },
      { path: "app.css", content: ".a{background:url(img/a.png)}" },
      { path: "img/a.png", content: "a" },
    ]);
    await runAll();
    const check = (await checkOf(client, site.id, published.deployment!.id)).json<DeploymentCheckResponse>();
    expect(check).toMatchObject({ status: "done", problem_count: 0, files_checked: 2, findings: [] });
    expect(
      await server.ctx.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.user_id, user.id), eq(notifications.kind, "check_problems"))),
    ).toEqual([]);
  });

  it("shows a check to its owner only", async () => {
    const { client, site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<p>mine</p>" }]);
    const [v1] = await deploymentsOf(client, site.id);
    const other = await signedInClient(server);
    expect((await checkOf(other.client, site.id, v1!.id)).statusCode).toBe(404);
    expect((await other.client.post(`/api/sites/${site.id}/deployments/${v1!.id}/check/fix-case`, {})).statusCode).toBe(404);
    expect((await checkOf(client, site.id, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    expect((await checkOf(client, site.id, "not-a-uuid")).statusCode).toBe(404);
  });

  it("loses no check when a worker dies holding it: the lease runs out and another worker finishes it", async () => {
    const { client, site } = await ownerWithSite(server, "free", [{ name: "index.html", data: '<img src="gone.png">' }]);
    const [v1] = await deploymentsOf(client, site.id);
    await runAll(); // everything else queued so far
    // A worker claims everything due, then dies without writing a result.
    const { published } = await deployFiles(client, site.id, [{ path: "index.html", content: '<img src="gone.png">' }]);
    const now = new Date();
    const claimed = await claimDueChecks(server.ctx.db, now, "00000000-0000-4000-8000-00000000dead", new Date(now.getTime() + 60_000), 10);
    expect(claimed.map((c) => c.deployment_id)).toContain(published.deployment!.id);
    // While the lease holds nobody else takes it…
    expect(await runDueChecks(server.ctx, now)).toBe(0);
    // …and after it, the next worker does.
    expect(await runDueChecks(server.ctx, new Date(now.getTime() + 61_000))).toBeGreaterThan(0);
    const [row] = await server.ctx.db.select().from(deploymentChecks).where(eq(deploymentChecks.deployment_id, published.deployment!.id));
    expect(row).toMatchObject({ status: "done", problem_count: 1, attempts: 2, lease_token: null });
    expect(v1).toBeDefined();
  });
});
