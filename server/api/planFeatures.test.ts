// Every feature flag of every plan, checked against the server: the built-in Free and Pro, and the
// plans of an operator's BERTH_PLANS_FILE that mixes the flags differently. What a plan does not
// allow is refused (403 pro_required, or for file versioning the 404 of a version not kept), and
// what it allows goes through. CHECKS is keyed by PlanFeature, so a new flag does not compile,
// and this test fails, until someone decides how the server enforces it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { setPlan, signedInClient } from "../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../test/sites";
import { findPlan, PLAN_FEATURES, versionsKept, type PlanCatalog, type PlanFeature } from "../../common/plans";
import { BUILT_IN_PLANS } from "../plans/builtIn";
import type { DeploymentResponse, SiteResponse } from "../../common/sites";

interface Attempt {
  /** The request went through. */
  allowed: boolean;
  /** Its answer, to check that a refusal is the plan's and not some other error. */
  status: number;
  code: string | undefined;
  /** The refusal's words, which name the plan that has the feature. */
  message: string | undefined;
}

/** The plans the server runs with, for checks whose measure is a plan's. */
type Check = (client: TestClient, site: SiteResponse, plans: PlanCatalog) => Promise<Attempt>;

const attempt = async (response: { statusCode: number; json: () => unknown }): Promise<Attempt> => {
  const error = response.statusCode >= 400 ? (response.json() as { error?: { code?: string; message?: string } }).error : undefined;
  return { allowed: response.statusCode < 300, status: response.statusCode, code: error?.code, message: error?.message };
};

const inADay = () => new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();

/** How each flag is used through the API. */
const CHECKS: Record<PlanFeature, Check> = {
  customDomains: async (client, site) =>
    attempt(await client.post(`/api/sites/${site.id}/domains`, { domain: `${randomBytes(6).toString("hex")}.example.org` })),
  passwordProtection: async (client, site) =>
    attempt(await client.request("PUT", `/api/sites/${site.id}/password`, { json: { password: "a long site password" } })),
  expiringLinks: async (client, site) => attempt(await client.post(`/api/sites/${site.id}/share-links`, { name: "For a friend" })),
  privateSites: async (client, site) => attempt(await client.request("PUT", `/api/sites/${site.id}/visibility`, { json: { visibility: "private" } })),
  siteExpiry: async (client, site) => attempt(await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: inADay(), publishAt: null })),
  // Without versioning, a site keeps its last versions only: restoring a file from its first one,
  // published more versions ago than any plan keeps, finds nothing to restore.
  fileVersioning: async (client, site, plans) => {
    const first = (await client.get(`/api/sites/${site.id}/deployments`)).json<{ deployments: DeploymentResponse[] }>().deployments.at(-1)!;
    expect(first.version).toBe(1);
    const beyond = Math.max(...plans.plans.map((plan) => plan.deploymentsKept ?? 0)) + 1;
    for (let n = 2; n <= beyond; n++) {
      const upload = await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile(`<p>version ${n}</p>`));
      expect(upload.statusCode).toBe(201);
    }
    return attempt(await client.post(`/api/sites/${site.id}/history/restore`, { deploymentId: first.id, path: "index.html" }));
  },
  pointInTimeRecovery: async (client, site) =>
    attempt(await client.post(`/api/sites/${site.id}/history/restore-at`, { at: new Date().toISOString() })),
};

/** The refusal each flag's absence answers with. */
const REFUSED_WITH: Partial<Record<PlanFeature, { status: number; code: string }>> = {
  fileVersioning: { status: 404, code: "version_not_kept" },
};

/**
 * An operator's plans that split the flags between three plans, none of them Free's or Pro's: each
 * flag is on in one plan and off in another, and file versioning sits apart from the gates.
 */
const CUSTOM_FILE = {
  plans: [
    {
      id: "starter",
      name: "Starter",
      price: "$0",
      default: true,
      limits: { storageBytes: 20 * 1024 * 1024, maxFileBytes: 1024 * 1024, deploymentsKept: 2 },
      features: { siteExpiry: true },
    },
    {
      id: "studio",
      name: "Studio",
      price: "$4",
      priceNote: "per month",
      limits: { storageBytes: 100 * 1024 * 1024, maxFileBytes: 10 * 1024 * 1024, deploymentsKept: 3 },
      features: { customDomains: true, privateSites: true, expiringLinks: true },
    },
    {
      id: "archive",
      name: "Archive",
      price: "$9",
      limits: { storageBytes: null, maxFileBytes: null, deploymentsKept: null },
      features: { passwordProtection: true, fileVersioning: true, pointInTimeRecovery: true },
    },
  ],
  upgradeTo: "studio",
};

const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-plan-features-"));
const customFile = path.join(scratch, "plans.json");
writeFileSync(customFile, JSON.stringify(CUSTOM_FILE));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Two plans between which one flag, private sites, is on in neither. */
const WITHOUT_PRIVATE_SITES = {
  plans: [
    { id: "basic", name: "Basic", price: "$0", default: true, limits: { storageBytes: null, maxFileBytes: null, deploymentsKept: 5 } },
    {
      id: "plus",
      name: "Plus",
      price: "$2",
      limits: { storageBytes: null, maxFileBytes: null, deploymentsKept: null },
      features: {
        customDomains: true,
        passwordProtection: true,
        expiringLinks: true,
        siteExpiry: true,
        fileVersioning: true,
        pointInTimeRecovery: true,
      },
    },
  ],
  upgradeTo: "plus",
};
const withoutPrivateFile = path.join(scratch, "without-private.json");
writeFileSync(withoutPrivateFile, JSON.stringify(WITHOUT_PRIVATE_SITES));

const CATALOGS: { name: string; env: Record<string, string>; ids: string[] }[] = [
  { name: "built-in plans", env: {}, ids: BUILT_IN_PLANS.plans.map((plan) => plan.id) },
  { name: "BERTH_PLANS_FILE", env: { BERTH_PLANS_FILE: customFile }, ids: CUSTOM_FILE.plans.map((plan) => plan.id) },
];

it("has a check for every flag", () => {
  expect(Object.keys(CHECKS).sort()).toEqual([...PLAN_FEATURES].sort());
});

it("walks a custom file in which every flag is on in one plan and off in another", () => {
  for (const feature of PLAN_FEATURES) {
    const on = CUSTOM_FILE.plans.filter((plan) => (plan.features as Partial<Record<PlanFeature, boolean>>)[feature] === true);
    expect(on.length, feature).toBeGreaterThan(0);
    expect(on.length, feature).toBeLessThan(CUSTOM_FILE.plans.length);
  }
});

describe.each(DRIVERS.flatMap((driver) => CATALOGS.map((catalog) => [driver, catalog.name, catalog] as const)))(
  "every plan's features, enforced by the server (%s, %s)",
  (driver, _name, catalog) => {
    let server: TestServer;

    beforeAll(async () => {
      server = await getTestServer(driver, { env: catalog.env });
      expect(server.ctx.plans.plans.map((plan) => plan.id)).toEqual(catalog.ids);
    });
    afterAll(() => server.close());

    const cases = catalog.ids.flatMap((plan) => PLAN_FEATURES.map((feature) => [plan, feature] as const));
    it.each(cases)("%s: %s", async (planId, feature) => {
      const { client, user } = await signedInClient(server);
      await setPlan(server, user.id, planId);
      const site = await createSiteWith(client, htmlFile("<p>version 1</p>"));
      const result = await CHECKS[feature](client, site, server.ctx.plans);
      if (findPlan(server.ctx.plans, planId)![feature]) {
        expect(result, `${planId} allows ${feature}`).toMatchObject({ allowed: true });
      } else {
        expect(result, `${planId} lacks ${feature}`).toMatchObject({
          allowed: false,
          ...(REFUSED_WITH[feature] ?? { status: 403, code: "pro_required" }),
        });
      }
    });

    it("keeps every version exactly when the plan has file versioning", () => {
      for (const plan of server.ctx.plans.plans) expect(versionsKept(plan) === null, plan.id).toBe(plan.fileVersioning);
    });
  },
);

describe.each(DRIVERS)("a refusal names the operator's plan that has the feature (%s)", (driver) => {
  let custom: TestServer;
  let withoutPrivate: TestServer;

  beforeAll(async () => {
    [custom, withoutPrivate] = await Promise.all([
      getTestServer(driver, { env: { BERTH_PLANS_FILE: customFile } }),
      getTestServer(driver, { env: { BERTH_PLANS_FILE: withoutPrivateFile } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([custom?.close(), withoutPrivate?.close()]);
  });

  const refusalOf = async (server: TestServer, planId: string, feature: PlanFeature) => {
    const { client, user } = await signedInClient(server);
    await setPlan(server, user.id, planId);
    const site = await createSiteWith(client, htmlFile("<p>version 1</p>"));
    const result = await CHECKS[feature](client, site, server.ctx.plans);
    expect(result.allowed, `${planId} lacks ${feature}`).toBe(false);
    return result.message;
  };

  it("names the first plan in the file's order that has it, never Pro", async () => {
    expect(await refusalOf(custom, "starter", "customDomains")).toBe("Custom domains are a Studio feature. Upgrade to Studio to add a domain.");
    expect(await refusalOf(custom, "studio", "passwordProtection")).toBe(
      "Password protection is an Archive feature. Upgrade to Archive to protect this site.",
    );
    expect(await refusalOf(custom, "starter", "pointInTimeRecovery")).toBe("Restoring a site as it was at a moment requires an Archive plan.");
    expect(await refusalOf(custom, "starter", "fileVersioning")).toBe(
      "This version is no longer kept, so it cannot be restored or opened. Your plan keeps the last 2 versions of each site; Archive keeps every version.",
    );
  });

  it("offers no upgrade for a feature none of the plans has", async () => {
    for (const planId of ["basic", "plus"]) {
      expect(await refusalOf(withoutPrivate, planId, "privateSites"), planId).toBe("Private sites are not available on this server.");
    }
  });
});
