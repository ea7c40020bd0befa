// Migration 0016 gives existing sites a live history: each published deployment went live when it
// was published, and a site whose live version is not its newest published one (a rollback since)
// went live with it at migration time. Checked by running the migration's own statements on a
// database whose live_periods were emptied, on both drivers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import { migrationsDir } from "../../paths";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../../test/sites";
import { deployFiles } from "../../test/deploys";
import { deployments, livePeriods } from "../schema";
import type { DeploymentResponse } from "../../../common/sites";

/** The migration's backfill: its INSERT statements, as written. */
const backfill = readFileSync(path.join(migrationsDir, "0016_live_periods.sql"), "utf8")
  .split("--> statement-breakpoint")
  .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
  .filter((statement) => statement.startsWith("INSERT"));

describe.each(DRIVERS)("migration 0016's live history (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it("records each publish, and a rollback's live version as going live at migration time", async () => {
    expect(backfill).toHaveLength(2);
    const { client } = await signedInClient(server);
    const rolledBack = await createSiteWith(client, htmlFile("<p>1</p>"));
    await postMultipart(client, `/api/sites/${rolledBack.id}/files`, {}, htmlFile("<p>2</p>"));
    const list = (await client.get(`/api/sites/${rolledBack.id}/deployments`)).json<{ deployments: DeploymentResponse[] }>().deployments;
    const v1 = list.find((d) => d.version === 1)!;
    expect((await client.post(`/api/sites/${rolledBack.id}/deployments/${v1.id}/rollback`, {})).statusCode).toBe(200);
    const straight = await createSiteWith(client, htmlFile("<p>only</p>"));
    // A draft never went live.
    await deployFiles(client, straight.id, [{ path: "index.html", content: "<p>draft</p>" }], { draft: true });

    await server.ctx.db.delete(livePeriods);
    const before = new Date(Date.now() - 1000);
    for (const statement of backfill) await server.ctx.db.execute(sql.raw(statement));

    const periods = async (siteId: string) =>
      (await server.ctx.db.select().from(livePeriods).where(eq(livePeriods.site_id, siteId)).orderBy(asc(livePeriods.started_at))).map((p) => ({
        version: p.version,
        at: p.started_at.getTime(),
      }));
    const published = async (siteId: string) =>
      (await server.ctx.db.select().from(deployments).where(eq(deployments.site_id, siteId)).orderBy(asc(deployments.version)))
        .filter((d) => d.status === "success" && !d.is_draft)
        .map((d) => ({ version: d.version, at: d.published_at!.getTime() }));

    const rolled = await periods(rolledBack.id);
    expect(rolled.slice(0, 2)).toEqual(await published(rolledBack.id));
    expect(rolled[2]!.version).toBe(1);
    expect(rolled[2]!.at).toBeGreaterThanOrEqual(before.getTime());
    expect(await periods(straight.id)).toEqual(await published(straight.id));
  });
});
