import { describe, expect, it } from "vitest";
import { BUILT_IN_PLANS, FREE_PLAN, PRO_PLAN } from "../server/plans/builtIn";
import { featureRequired, firstPlanWith, GATED_FEATURES } from "./featureRequired";
import { PLAN_FEATURES, type Plan, type PlanCatalog, type PlanFeature } from "./plans";

const plan = (id: string, name: string, features: Partial<Record<PlanFeature, boolean>>): Plan => ({
  ...FREE_PLAN,
  id,
  name,
  ...Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, features[feature] ?? false])),
});

/** Three plans, none called Pro: Team is the first with custom domains, no plan has private sites. */
const CUSTOM: PlanCatalog = {
  plans: [
    plan("solo", "Solo", { siteExpiry: true }),
    plan("team", "Team", { customDomains: true, passwordProtection: true, siteExpiry: true }),
    plan("agency", "Agency", { customDomains: true, passwordProtection: true, expiringLinks: true, pointInTimeRecovery: true, fileVersioning: true }),
  ],
  defaultPlan: "solo",
  upgradeTo: "agency",
};

describe("featureRequired", () => {
  it("keeps the product's words with the built-in plans, naming Pro", () => {
    const texts = Object.fromEntries(GATED_FEATURES.map((feature) => [feature, featureRequired(BUILT_IN_PLANS, feature)]));
    expect(texts).toEqual({
      customDomains: {
        plan: PRO_PLAN,
        feature: "Custom domains are a Pro feature.",
        action: "Upgrade to Pro to add a domain.",
        message: "Custom domains are a Pro feature. Upgrade to Pro to add a domain.",
      },
      passwordProtection: {
        plan: PRO_PLAN,
        feature: "Password protection is a Pro feature.",
        action: "Upgrade to Pro to protect this site.",
        message: "Password protection is a Pro feature. Upgrade to Pro to protect this site.",
      },
      expiringLinks: {
        plan: PRO_PLAN,
        feature: "Share links are a Pro feature.",
        action: "Upgrade to Pro to share this site privately.",
        message: "Share links are a Pro feature. Upgrade to Pro to share this site privately.",
      },
      privateSites: {
        plan: PRO_PLAN,
        feature: "Private sites are a Pro feature.",
        action: "Upgrade to Pro to make this site private.",
        message: "Private sites are a Pro feature. Upgrade to Pro to make this site private.",
      },
      siteExpiry: {
        plan: PRO_PLAN,
        feature: "Site expiry and go-live times are a Pro feature.",
        action: "Upgrade to Pro to schedule this site.",
        message: "Site expiry and go-live times are a Pro feature. Upgrade to Pro to schedule this site.",
      },
      pointInTimeRecovery: {
        plan: PRO_PLAN,
        feature: "Point-in-time restore",
        action: "brings back the whole site as it was at any moment. It needs a Pro plan.",
        message: "Restoring a site as it was at a moment requires a Pro plan.",
      },
    });
  });

  it("names the first plan, in the catalogue's order, that has the feature", () => {
    expect(featureRequired(CUSTOM, "customDomains")).toEqual({
      plan: CUSTOM.plans[1],
      feature: "Custom domains are a Team feature.",
      action: "Upgrade to Team to add a domain.",
      message: "Custom domains are a Team feature. Upgrade to Team to add a domain.",
    });
    // Only the largest plan has share links, whatever 'Upgrade' offers.
    expect(featureRequired(CUSTOM, "expiringLinks").message).toBe(
      "Share links are an Agency feature. Upgrade to Agency to share this site privately.",
    );
    expect(featureRequired(CUSTOM, "pointInTimeRecovery")).toMatchObject({
      plan: CUSTOM.plans[2],
      action: "brings back the whole site as it was at any moment. It needs an Agency plan.",
      message: "Restoring a site as it was at a moment requires an Agency plan.",
    });
  });

  it("offers no plan, and says the server does not offer the feature, when no plan has it", () => {
    expect(featureRequired(CUSTOM, "privateSites")).toEqual({
      plan: undefined,
      feature: "Private sites are not available on this server.",
      action: null,
      message: "Private sites are not available on this server.",
    });
    for (const feature of GATED_FEATURES) {
      const none = { ...CUSTOM, plans: CUSTOM.plans.map((p) => ({ ...p, [feature]: false })) };
      const texts = featureRequired(none, feature);
      expect(texts, feature).toMatchObject({ plan: undefined, action: null });
      expect(texts.message, feature).toMatch(/ not available on this server\.$/);
      expect(texts.message, feature).not.toMatch(/upgrade|Team|Agency|Solo/i);
    }
  });

  it("finds the first plan that keeps every version, if any", () => {
    expect(firstPlanWith(BUILT_IN_PLANS, "fileVersioning")).toBe(PRO_PLAN);
    expect(firstPlanWith(CUSTOM, "fileVersioning")?.name).toBe("Agency");
    expect(firstPlanWith(CUSTOM, "privateSites")).toBeUndefined();
  });
});
