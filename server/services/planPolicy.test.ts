// The one feature gate: the dashboard learns what the user's plan allows from GET /api/stats,
// and requireFeature refuses, in the feature's own words, what the plan lacks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { setPlan, signedInClient } from "../test/factories";
import { createSiteWith, htmlFile } from "../test/sites";
import { PLAN_FEATURES, PLANS, type PlanId } from "../../common/plans";
import { SHARE_LINK_TEXT } from "../../common/shareLinks";
import type { StatsResponse } from "../../common/sites";
import { AppError } from "../errors";
import { requireFeature, type GatedFeature } from "./planPolicy";

const GATED: GatedFeature[] = ["customDomains", "passwordProtection", "expiringLinks", "privateSites", "siteExpiry"];

describe.each(DRIVERS)("plan policy (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it.each(Object.keys(PLANS) as PlanId[])("sends the %s plan's features and limits with the stats", async (planId) => {
    const { client, user } = await signedInClient(server);
    await setPlan(server, user.id, planId);
    const stats = (await client.get("/api/stats")).json<StatsResponse>();
    const plan = PLANS[planId];
    expect(Object.keys(stats.features).sort()).toEqual([...PLAN_FEATURES].sort());
    for (const feature of PLAN_FEATURES) expect(stats.features[feature], feature).toBe(plan[feature]);
    expect(stats).toMatchObject({
      plan: planId,
      plan_name: plan.name,
      storage_quota: plan.storageBytes,
      max_file_bytes: plan.maxFileBytes,
      deployments_kept: plan.deploymentsKept,
    });
  });

  it("refuses every gated feature the Free plan lacks with 403 pro_required, and lets Pro through", async () => {
    const { user } = await signedInClient(server);
    for (const feature of GATED) {
      expect(PLANS.free[feature], feature).toBe(false);
      const refused = await requireFeature(server.ctx, user.id, feature).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, feature).toBeInstanceOf(AppError);
      expect(refused, feature).toMatchObject({ code: "pro_required", status: 403 });
    }
    await setPlan(server, user.id, "pro");
    for (const feature of GATED) await expect(requireFeature(server.ctx, user.id, feature)).resolves.toBeUndefined();
  });

  it("refuses a Free user making a site private, and changes nothing", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    const response = await client.request("PUT", `/api/sites/${site.id}/visibility`, { json: { visibility: "private" } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: "pro_required", message: SHARE_LINK_TEXT.privateProRequired });
    expect((await client.get(`/api/sites/${site.id}`)).json().visibility).toBe("public");
  });
});
