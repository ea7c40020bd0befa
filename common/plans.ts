// What a plan is and allows, and the catalogue of plans a server offers. The plans themselves are
// the operator's (BERTH_PLANS_FILE, read by server/plans/file.ts; without it the built-in Free and
// Pro of server/plans/builtIn.ts): the server enforces them and sends them in GET /api/config, so
// the landing page, the docs, the plans dialog and the admin page show what the server enforces,
// never numbers built into the dashboard. Sizes are bytes, base 1024; a null limit is unlimited.
import { z } from "zod";

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** A plan's id, stored per user (profiles.plan) and typed by the operator in `set-plan`. */
export type PlanId = string;

/** The switches a plan turns on. The server refuses a change that needs one the user's plan lacks. */
export const PLAN_FEATURES = [
  "customDomains",
  "passwordProtection",
  "expiringLinks",
  "privateSites",
  "siteExpiry",
  "fileVersioning",
  "pointInTimeRecovery",
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];
export type PlanFeatures = Record<PlanFeature, boolean>;

/** The numbers a plan limits, each null when the plan sets no limit. */
export const PLAN_LIMITS = ["storageBytes", "maxFileBytes", "deploymentsKept"] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];

const limit = z.number().int().positive().nullable();

export const Plan = z.object({
  id: z.string(),
  name: z.string(),
  /** The price as the pricing page shows it, large: "$0", "Custom", "€12". */
  price: z.string(),
  /** What the price is per, shown small beside it: "forever", "per month"; null: nothing. */
  priceNote: z.string().nullable(),
  /** One line under the plan's name on the pricing page; null: none. */
  description: z.string().nullable(),
  /** Total of all files a user stores, across every site and deployment. */
  storageBytes: limit,
  /** Largest single file the user may upload (within what storage is left). */
  maxFileBytes: limit,
  /** Deployments kept per site without fileVersioning (the live one is always kept too); null keeps every one. */
  deploymentsKept: limit,
  customDomains: z.boolean(),
  passwordProtection: z.boolean(),
  /** Share links to a site (with their expiry, password and view limit). */
  expiringLinks: z.boolean(),
  /** A site served only to browsers that opened one of its share links (PUT /api/sites/:id/visibility). */
  privateSites: z.boolean(),
  /** An expiry date and a go-live date on a site (PATCH /api/sites/:id/schedule). */
  siteExpiry: z.boolean(),
  /**
   * Every version of every file kept, to open, compare and restore. Without it a site keeps its
   * last `deploymentsKept` deployments, and file history reaches as far back as they do.
   */
  fileVersioning: z.boolean(),
  /** "Restore the site as it was at…" a date and time (POST /api/sites/:id/history/restore-at). */
  pointInTimeRecovery: z.boolean(),
});
export type Plan = z.infer<typeof Plan>;

/** The plans a server offers, in the order its pages list them (smallest first). */
export const PlanCatalog = z.object({
  plans: z.array(Plan).min(1),
  defaultPlan: z.string().describe("The plan every new account starts on."),
  upgradeTo: z
    .string()
    .nullable()
    .describe("The plan 'Upgrade' offers (and an approved request moves to), to accounts on a plan listed before it; null: none is offered."),
});
export type PlanCatalog = z.infer<typeof PlanCatalog>;

export function findPlan(catalog: PlanCatalog, id: PlanId): Plan | undefined {
  return catalog.plans.find((plan) => plan.id === id);
}

/** The plan new accounts start on (the catalogue is checked to hold it). */
export function defaultPlanOf(catalog: PlanCatalog): Plan {
  return findPlan(catalog, catalog.defaultPlan) ?? catalog.plans[0]!;
}

/**
 * The plan an account on `current` is offered, if any: the catalogue's upgradeTo when it is listed
 * after the account's plan, since the list goes from smallest to largest and no one is offered a
 * step down. A plan the catalogue does not hold is offered nothing.
 */
export function upgradeFor(catalog: PlanCatalog, current: PlanId): Plan | undefined {
  if (catalog.upgradeTo === null) return undefined;
  const from = catalog.plans.findIndex((plan) => plan.id === current);
  const to = catalog.plans.findIndex((plan) => plan.id === catalog.upgradeTo);
  return from >= 0 && to > from ? catalog.plans[to] : undefined;
}

/**
 * Every plan an account on `current` may ask for, in the catalogue's order: the plans listed after
 * its own (the list goes from smallest to largest, and no one is offered a step down). upgradeTo
 * is among them exactly when upgradeFor offers it. A catalogue whose upgradeTo is null offers no
 * plan at all, and a plan the catalogue does not hold is offered nothing.
 */
export function offeredPlans(catalog: PlanCatalog, current: PlanId): Plan[] {
  if (catalog.upgradeTo === null) return [];
  const from = catalog.plans.findIndex((plan) => plan.id === current);
  return from < 0 ? [] : catalog.plans.slice(from + 1);
}

/** The plans anyone on this server may ask for: those offered to an account on the first plan. */
export function requestablePlans(catalog: PlanCatalog): Plan[] {
  return offeredPlans(catalog, catalog.plans[0]!.id);
}

/** Plans' names joined for a sentence: "Studio", "Maker or Studio", "Maker, Studio or Vault". */
export function planNamesOr(plans: readonly Pick<Plan, "name">[]): string {
  const names = plans.map((plan) => plan.name);
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)!}`;
}

/** The plan the 'Upgrade' button names before the account's plan is known: the catalogue's target. */
export function upgradeTarget(catalog: PlanCatalog): Plan | undefined {
  return catalog.upgradeTo === null ? undefined : findPlan(catalog, catalog.upgradeTo);
}

/** How many deployments of each site the plan keeps (and so how far file history reaches); null: every one. */
export function versionsKept(plan: Pick<Plan, "fileVersioning" | "deploymentsKept">): number | null {
  return plan.fileVersioning ? null : plan.deploymentsKept;
}

export function featuresOf(plan: Plan): PlanFeatures {
  return Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, plan[feature]])) as PlanFeatures;
}

/**
 * A byte limit to compute with: null (unlimited) becomes a number no account reaches, which a SQL
 * bigint takes too, so every comparison and subtraction stays the same for unlimited plans.
 */
export function byteLimit(bytes: number | null): number {
  return bytes ?? Number.MAX_SAFE_INTEGER;
}

/** A plan size for marketing copy: "500 MB", "5 GB". */
export function formatPlanBytes(bytes: number): string {
  return bytes >= GB ? `${+(bytes / GB).toFixed(2)} GB` : `${+(bytes / MB).toFixed(2)} MB`;
}

/** A plan limit for the pages: "500 MB", or "Unlimited" where the plan sets none. */
export function formatPlanLimit(bytes: number | null): string {
  return bytes === null ? "Unlimited" : formatPlanBytes(bytes);
}
