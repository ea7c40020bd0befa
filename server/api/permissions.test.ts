// Every site route, as a guest, as the owner and as another user. The other user always gets 404
// and changes nothing: the database and the blob store are compared before and after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile, multipartBody } from "../test/sites";
import { deployFiles, digestTarOf, manifestOf, openDeploy, postTar, putFile } from "../test/deploys";
import type { SiteResponse } from "../../common/sites";
import { rowsOf } from "../db/rows";

interface Fixture {
  site: SiteResponse;
  fileId: string;
  deploymentId: string;
  /** An open deploy with one file not sent yet (MISSING). */
  deployId: string;
  /** An open deploy whose files the owner holds already: ready to publish. */
  readyDeployId: string;
  /** A draft version, to promote. */
  draftId: string;
}

const MISSING = "<p>sent later</p>";

type Call = (client: TestClient, f: Fixture) => ReturnType<TestClient["request"]>;

const upload =
  (fields: Record<string, string>): Call =>
  (client, f) => {
    const { body, contentType } = multipartBody(fields, htmlFile("<p>intruder</p>", "evil.html"));
    return client.request("POST", `/api/sites/${f.site.id}/files`, { headers: { "content-type": contentType }, payload: body });
  };

const ROUTES: [string, Call, number][] = [
  ["GET site", (c, f) => c.get(`/api/sites/${f.site.id}`), 200],
  ["PATCH site", (c, f) => c.patch(`/api/sites/${f.site.id}`, { name: "Taken over", user_id: "someone", status: "active" }), 200],
  ["GET files", (c, f) => c.get(`/api/sites/${f.site.id}/files`), 200],
  ["POST file", upload({}), 201],
  ["POST folder", (c, f) => c.post(`/api/sites/${f.site.id}/folders`, { name: "new" }), 201],
  ["GET download", (c, f) => c.get(`/api/sites/${f.site.id}/files/${f.fileId}/download`), 200],
  ["GET deployments", (c, f) => c.get(`/api/sites/${f.site.id}/deployments`), 200],
  ["POST deploy", (c, f) => c.post(`/api/sites/${f.site.id}/deployments`, {}), 201],
  ["POST rollback", (c, f) => c.post(`/api/sites/${f.site.id}/deployments/${f.deploymentId}/rollback`, {}), 200],
  ["DELETE file", (c, f) => c.delete(`/api/sites/${f.site.id}/files/${f.fileId}`), 200],
  ["DELETE site", (c, f) => c.delete(`/api/sites/${f.site.id}`), 200],
  ["POST restore", (c, f) => c.post(`/api/sites/${f.site.id}/restore`, {}), 200],
  ["POST deploy", (c, f) => c.post(`/api/sites/${f.site.id}/deploys`, { files: manifestOf([{ path: "x.html", content: "x" }]) }), 201],
  ["GET deploy", (c, f) => c.get(`/api/sites/${f.site.id}/deploys/${f.deployId}`), 200],
  ["PUT deploy file", (c, f) => putFile(c, f.site.id, f.deployId, MISSING), 204],
  ["POST deploy tar", (c, f) => postTar(c, f.site.id, f.deployId, digestTarOf([{ path: "sent.html", content: MISSING }])), 200],
  ["POST publish", (c, f) => c.post(`/api/sites/${f.site.id}/deploys/${f.readyDeployId}/publish`, {}), 200],
  ["POST promote", (c, f) => c.post(`/api/sites/${f.site.id}/deployments/${f.draftId}/promote`, {}), 200],
  // Adding one needs Pro, and the domain routes by id answer domain_not_found: api/domains/routes.test.ts.
  ["GET domains", (c, f) => c.get(`/api/sites/${f.site.id}/domains`), 200],
];

async function snapshot(server: TestServer): Promise<string> {
  const tables = ["sites", "site_files", "deployments", "deployment_files", "blobs", "available_subdomains", "domains", "deploys", "deploy_uploads"];
  const parts: string[] = [];
  for (const table of tables) {
    const result = await server.ctx.db.execute(sql.raw(`select * from ${table} order by 1, 2`));
    parts.push(JSON.stringify(rowsOf(result)));
  }
  const stored: string[] = [];
  for await (const blob of server.ctx.blobs.list()) stored.push(blob.sha256);
  return parts.join("\n") + stored.sort().join(",");
}

interface WebhookFixture {
  webhookId: string;
  deliveryId: string;
}

type WebhookCall = (client: TestClient, f: WebhookFixture) => ReturnType<TestClient["request"]>;

/** The webhook routes that name one webhook (the list and the add are the account's own: api/webhooks/routes.test.ts). */
const WEBHOOK_ROUTES: [string, WebhookCall, number][] = [
  ["PATCH webhook", (c, f) => c.patch(`/api/webhooks/${f.webhookId}`, { enabled: false, user_id: "someone" }), 200],
  ["GET deliveries", (c, f) => c.get(`/api/webhooks/${f.webhookId}/deliveries`), 200],
  ["POST test", (c, f) => c.post(`/api/webhooks/${f.webhookId}/test`, {}), 202],
  ["POST redeliver", (c, f) => c.post(`/api/webhooks/${f.webhookId}/deliveries/${f.deliveryId}/redeliver`, {}), 202],
  ["DELETE webhook", (c, f) => c.delete(`/api/webhooks/${f.webhookId}`), 204],
];

describe.each(DRIVERS)("who may do what to a site (%s)", (driver) => {
  let server: TestServer;
  let owner: TestClient;
  let intruder: TestClient;
  let fixture: Fixture;

  beforeAll(async () => {
    server = await getTestServer(driver);
    owner = (await signedInClient(server)).client;
    intruder = (await signedInClient(server)).client;
  });
  afterAll(() => server.close());

  const freshFixture = async (): Promise<Fixture> => {
    const site = await createSiteWith(owner, htmlFile("<p>mine</p>"));
    const [file] = (await owner.get(`/api/sites/${site.id}/files`)).json().files;
    const [deployment] = (await owner.get(`/api/sites/${site.id}/deployments`)).json().deployments;
    const held = { path: "index.html", content: "<p>mine</p>" };
    const deploy = await openDeploy(owner, site.id, { files: manifestOf([held, { path: "sent.html", content: MISSING }]) });
    const ready = await openDeploy(owner, site.id, { files: manifestOf([held]), message: "ready" });
    const draft = await deployFiles(owner, site.id, [{ path: "index.html", content: "<p>draft</p>" }], { draft: true });
    return {
      site,
      fileId: file.id,
      deploymentId: deployment.id,
      deployId: deploy.json().id,
      readyDeployId: ready.json().id,
      draftId: draft.published.deployment!.id,
    };
  };

  it.each(ROUTES)("%s: a guest gets 401", async (_name, call) => {
    fixture ??= await freshFixture();
    const response = await call(server.client(), fixture);
    expect(response.statusCode).toBe(401);
  });

  it.each(ROUTES)("%s: another user gets 404 and changes nothing", async (_name, call) => {
    fixture ??= await freshFixture();
    const before = await snapshot(server);
    const response = await call(intruder, fixture);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("site_not_found");
    expect(await snapshot(server)).toBe(before);
  });

  it.each(ROUTES)("%s: the owner may", async (name, call, status) => {
    const own = await freshFixture();
    if (name === "POST restore") await owner.delete(`/api/sites/${own.site.id}`);
    const response = await call(owner, own);
    expect(response.statusCode, response.body).toBe(status);
  });

  it("ignores user_id and status in a body", async () => {
    const own = await freshFixture();
    const patched = await owner.patch(`/api/sites/${own.site.id}`, { name: "Mine", user_id: "x", status: "deleted", is_deleted: true });
    expect(patched.json()).toMatchObject({ name: "Mine", status: "active", is_deleted: false });
  });

  it("answers 404 for ids that are not ids", async () => {
    for (const url of ["/api/sites/not-a-uuid", "/api/sites/1' or '1'='1/files", `/api/sites/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}`]) {
      expect((await owner.get(url)).statusCode).toBe(404);
    }
  });
});

describe.each(DRIVERS)("who may do what to a webhook (%s)", (driver) => {
  let server: TestServer;
  let owner: TestClient;
  let intruder: TestClient;
  let fixture: WebhookFixture;

  beforeAll(async () => {
    // Webhooks to a loopback port nothing listens on; no worker runs here, so nothing is sent.
    server = await getTestServer(driver, { env: { BERTH_WEBHOOK_ALLOW_PRIVATE: "true" } });
    owner = (await signedInClient(server)).client;
    intruder = (await signedInClient(server)).client;
  });
  afterAll(() => server.close());

  const freshFixture = async (): Promise<WebhookFixture> => {
    const created = await owner.post("/api/webhooks", { url: "http://127.0.0.1:9/hook", events: ["deploy.succeeded"] });
    const webhookId = created.json().webhook.id as string;
    const ping = await owner.post(`/api/webhooks/${webhookId}/test`, {});
    return { webhookId, deliveryId: ping.json().id as string };
  };
  const webhookRows = async () => {
    const parts: string[] = [];
    for (const table of ["webhook_endpoints", "webhook_deliveries"]) {
      parts.push(JSON.stringify(rowsOf(await server.ctx.db.execute(sql.raw(`select * from ${table} order by 1`)))));
    }
    return parts.join("\n");
  };

  it.each(WEBHOOK_ROUTES)("%s: a guest gets 401", async (_name, call) => {
    fixture ??= await freshFixture();
    expect((await call(server.client(), fixture)).statusCode).toBe(401);
  });

  it.each(WEBHOOK_ROUTES)("%s: another user gets 404 and changes nothing", async (_name, call) => {
    fixture ??= await freshFixture();
    const before = await webhookRows();
    const response = await call(intruder, fixture);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("webhook_not_found");
    expect(await webhookRows()).toBe(before);
  });

  it.each(WEBHOOK_ROUTES)("%s: the owner may", async (_name, call, status) => {
    const response = await call(owner, await freshFixture());
    expect(response.statusCode, response.body).toBe(status);
  });
});
