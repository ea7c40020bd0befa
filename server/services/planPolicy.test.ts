// The one feature gate: the dashboard learns what the user's plan allows from GET /api/stats,
// and requireFeature refuses, in the feature's own words, what the plan lacks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { setPlan, signedInClient } from "../test/factories";
import { createSiteWith, htmlFile } from "../test/sites";
import { findPlan, PLAN_FEATURES } from "../../common/plans";
import { BUILT_IN_PLANS, FREE_PLAN } from "../plans/builtIn";
import { GATED_FEATURES as GATED } from "../../common/featureRequired";
import type { StatsResponse } from "../../common/sites";
import { AppError } from "../errors";
import { requireFeature } from "./planPolicy";

describe.each(DRIVERS)("plan policy (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it.each(BUILT_IN_PLANS.plans.map((plan) => plan.id))("sends the %s plan's features and limits with the stats", async (planId) => {
    const { client, user } = await signedInClient(server);
    await setPlan(server, user.id, planId);
    const stats = (await client.get("/api/stats")).json<StatsResponse>();
    const plan = findPlan(server.ctx.plans, planId)!;
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
      expect(FREE_PLAN[feature], feature).toBe(false);
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
    expect(response.json().error).toMatchObject({
      code: "pro_required",
      message: "Private sites are a Pro feature. Upgrade to Pro to make this site private.",
    });
    expect((await client.get(`/api/sites/${site.id}`)).json().visibility).toBe("public");
  });
});
