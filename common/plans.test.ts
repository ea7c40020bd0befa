import { describe, expect, it } from "vitest";
import { offeredPlans, planNamesOr, requestablePlans, upgradeFor, type Plan, type PlanCatalog } from "./plans";

const plan = (id: string): Plan => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  price: "$0",
  priceNote: null,
  description: null,
  storageBytes: null,
  maxFileBytes: null,
  deploymentsKept: null,
  customDomains: false,
  passwordProtection: false,
  expiringLinks: false,
  privateSites: false,
  siteExpiry: false,
  fileVersioning: false,
  pointInTimeRecovery: false,
});
const catalog = (ids: string[], upgradeTo: string | null): PlanCatalog => ({ plans: ids.map(plan), defaultPlan: ids[0]!, upgradeTo });
const ids = (plans: Plan[]) => plans.map((p) => p.id);

describe("the plans offered to an account", () => {
  it("are the plans listed after its own, upgradeTo among them exactly when upgradeFor offers it", () => {
    const plans = catalog(["hobby", "maker", "studio"], "maker");
    expect(ids(offeredPlans(plans, "hobby"))).toEqual(["maker", "studio"]);
    expect(ids(offeredPlans(plans, "maker"))).toEqual(["studio"]);
    expect(upgradeFor(plans, "maker")).toBeUndefined();
    expect(offeredPlans(plans, "studio")).toEqual([]);
    expect(ids(requestablePlans(plans))).toEqual(["maker", "studio"]);
  });

  it("are Pro alone with the built-in plans, and none on a server with no upgradeTo or for an unknown plan", () => {
    expect(ids(offeredPlans(catalog(["free", "pro"], "pro"), "free"))).toEqual(["pro"]);
    expect(offeredPlans(catalog(["free", "pro"], "pro"), "pro")).toEqual([]);
    expect(offeredPlans(catalog(["free", "pro"], null), "free")).toEqual([]);
    expect(offeredPlans(catalog(["free", "pro"], "pro"), "gold")).toEqual([]);
  });

  it("are named in a sentence with 'or'", () => {
    expect(planNamesOr([plan("pro")])).toBe("Pro");
    expect(planNamesOr([plan("maker"), plan("studio")])).toBe("Maker or Studio");
    expect(planNamesOr([plan("maker"), plan("studio"), plan("vault")])).toBe("Maker, Studio or Vault");
  });
});
