// Plan limits end to end: the per-file limit and the storage quota follow the plan the operator
// gives a user through the admin API, and a refused upload changes nothing.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { signedInClient, type BuiltUser } from "../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart } from "../test/sites";
import { blobs, siteFiles } from "../db/schema";
import { rowsOf } from "../db/rows";
import { PRO_PLAN } from "../plans/builtIn";
import type { SiteResponse } from "../../common/sites";

const MB = 1024 * 1024;
const ADMIN_EMAIL = "operator@example.com";

async function state(server: TestServer): Promise<string> {
  const counts = await server.ctx.db.execute(
    sql`select (select count(*) from site_files) as f, (select count(*) from deployments) as d, (select count(*) from blobs) as b`,
  );
  const stored: string[] = [];
  for await (const blob of server.ctx.blobs.list()) stored.push(blob.sha256);
  return JSON.stringify(rowsOf(counts)) + stored.sort().join(",");
}

describe.each(DRIVERS)("plan limits (%s)", (driver) => {
  let server: TestServer;
  let admin: TestClient;
  let owner: { client: TestClient; user: BuiltUser };
  let site: SiteResponse;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_ADMIN_EMAILS: ADMIN_EMAIL } });
    admin = (await signedInClient(server, { email: ADMIN_EMAIL })).client;
    owner = await signedInClient(server);
    site = await createSiteWith(owner.client, htmlFile());
  });
  afterAll(() => server.close());

  const setPlan = async (plan: "free" | "pro") => {
    const response = await admin.patch(`/api/admin/users/${owner.user.id}`, { plan });
    expect(response.statusCode).toBe(200);
    expect(response.json().plan).toBe(plan);
  };

  it("refuses a 51 MB file on Free with 'File too large', and takes it once the user is Pro", async () => {
    const content = Buffer.alloc(51 * MB, 7);
    const upload = () => postMultipart(owner.client, `/api/sites/${site.id}/files`, {}, { name: "big.pdf", content, type: "application/pdf" });

    const before = await state(server);
    const refused = await upload();
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error).toMatchObject({ code: "file_too_large", message: "File too large", detail: "Maximum file size is 50MB" });
    expect(await state(server)).toBe(before);

    await setPlan("pro");
    expect((await owner.client.get("/api/me")).json().account.plan).toBe("pro");
    const accepted = await upload();
    expect(accepted.statusCode).toBe(201);
    const served = await server.edge.get(hostOf(site.url), "/big.pdf");
    expect(served.status).toBe(200);
    expect(createHash("sha256").update(served.body).digest("hex")).toBe(createHash("sha256").update(content).digest("hex"));

    // Back on Free, the same file is refused again; what is stored stays.
    await setPlan("free");
    expect((await upload()).statusCode).toBe(413);
    expect((await server.edge.get(hostOf(site.url), "/big.pdf")).status).toBe(200);
  });

  it("refuses an upload that would cross the Pro quota with a clear message, changing nothing", async () => {
    await setPlan("pro");
    const filler = "e".repeat(64);
    const fill = PRO_PLAN.storageBytes - (await owner.client.get("/api/stats")).json().storage_used - MB;
    await server.ctx.db.insert(blobs).values({ sha256: filler, size: fill });
    await server.ctx.db.insert(siteFiles).values({
      site_id: site.id,
      filename: "filler.bin",
      file_path: "filler.bin",
      file_size: fill,
      sha256: filler,
      file_type: "application/octet-stream",
    });
    const before = await state(server);
    const response = await postMultipart(
      owner.client,
      `/api/sites/${site.id}/files`,
      {},
      { name: "two.html", content: Buffer.alloc(2 * MB, 98), type: "text/html" },
    );
    expect(response.statusCode).toBe(413);
    const error = response.json().error;
    expect(error.code).toBe("quota_exceeded");
    expect(`${error.message} ${error.detail ?? ""}`).toMatch(/5 GB/);
    expect(await state(server)).toBe(before);
    const stats = (await owner.client.get("/api/stats")).json();
    expect(stats.storage_quota).toBe(PRO_PLAN.storageBytes);
    expect(stats.storage_used).toBe(PRO_PLAN.storageBytes - MB);
  });
});
