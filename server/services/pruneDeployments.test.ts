// Version history by plan: Free keeps the last 10 deployments of a site (and the live one),
// Pro keeps every one. Checked through the API and the edge, as a user and a visitor see it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { setPlan, signedInClient, type BuiltUser } from "../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart } from "../test/sites";
import { blobs } from "../db/schema";
import { FREE_PLAN } from "../plans/builtIn";
import type { SiteResponse } from "../../common/sites";
import { createHash } from "node:crypto";

const KEPT = FREE_PLAN.deploymentsKept;
const page = (n: number) => `<h1>version ${n}</h1>`;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(DRIVERS)("deployment history by plan (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  async function siteWithVersions(client: TestClient, count: number): Promise<SiteResponse> {
    const site = await createSiteWith(client, htmlFile(page(1)));
    // Each upload to the Files tab publishes a new version.
    for (let n = 2; n <= count; n++) {
      const upload = await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile(page(n)));
      expect(upload.statusCode).toBe(201);
    }
    return site;
  }

  const versions = async (client: TestClient, site: SiteResponse) =>
    ((await client.get(`/api/sites/${site.id}/deployments`)).json().deployments as Array<{ version: number; id: string }>).map((d) => d.version);

  const versionHost = (site: SiteResponse, version: number) => hostOf(site.url).replace(site.subdomain, `${site.subdomain}--v${version}`);

  it("keeps the last 10 deployments on Free, and frees what only the older ones used", async () => {
    const { client } = await signedInClient(server);
    const site = await siteWithVersions(client, KEPT + 2);
    expect(await versions(client, site)).toEqual(Array.from({ length: KEPT }, (_, i) => KEPT + 2 - i));
    // The versions that went are gone from the edge too; the kept ones still answer.
    expect((await server.edge.get(versionHost(site, 1))).status).toBe(404);
    expect((await server.edge.get(versionHost(site, 2))).status).toBe(404);
    expect((await server.edge.get(versionHost(site, 3))).text).toBe(page(3));
    expect((await server.edge.get(hostOf(site.url))).text).toBe(page(KEPT + 2));
    // Bytes only version 1 used are deleted; bytes a kept version uses stay.
    expect(
      await server.ctx.db
        .select()
        .from(blobs)
        .where(eq(blobs.sha256, sha(page(1)))),
    ).toEqual([]);
    expect(await server.ctx.blobs.stat(sha(page(1)))).toBeUndefined();
    expect(await server.ctx.blobs.stat(sha(page(3)))).toBeDefined();
  });

  it("keeps the live deployment after a rollback, even when it is older than the last 10", async () => {
    const { client } = await signedInClient(server);
    const site = await siteWithVersions(client, KEPT);
    const list = (await client.get(`/api/sites/${site.id}/deployments`)).json().deployments as Array<{ version: number; id: string }>;
    const first = list.find((d) => d.version === 1)!;
    expect((await client.post(`/api/sites/${site.id}/deployments/${first.id}/rollback`, {})).statusCode).toBe(200);
    // A failed publish adds to the history while version 1 stays live.
    await postMultipart(client, `/api/sites/${site.id}/files`, {}, { name: "_redirects", content: "this is not a rule\n", type: "text/plain" });
    expect(await versions(client, site)).toEqual([KEPT + 1, ...Array.from({ length: KEPT - 1 }, (_, i) => KEPT - i), 1]);
    expect((await server.edge.get(hostOf(site.url))).text).toBe(page(1));
  });

  it("keeps every deployment on Pro", async () => {
    const { client, user }: { client: TestClient; user: BuiltUser } = await signedInClient(server);
    await setPlan(server, user.id, "pro");
    const site = await siteWithVersions(client, KEPT + 2);
    expect(await versions(client, site)).toHaveLength(KEPT + 2);
    expect((await server.edge.get(versionHost(site, 1))).text).toBe(page(1));
  });
});
