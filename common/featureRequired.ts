// What a user is told when their plan lacks a feature: the dashboard's prompt on the feature's card
// and the server's refusal (403 pro_required) say the same, and name the plan that has it, the
// first in the catalogue's order (smallest first) whose flags turn it on. The plans are the
// operator's, so no text here assumes one is called Pro; with the built-in plans the words are
// the product's own ("… is a Pro feature. Upgrade to Pro to …"). Where no plan has the feature,
// nothing offers an upgrade: the texts say the server does not offer it.
import { type Plan, type PlanCatalog, type PlanFeature } from "./plans";

/** A feature some change needs. fileVersioning is not a gate: it decides how far history reaches. */
export type GatedFeature = Exclude<PlanFeature, "fileVersioning">;
export const GATED_FEATURES = [
  "customDomains",
  "passwordProtection",
  "expiringLinks",
  "privateSites",
  "siteExpiry",
  "pointInTimeRecovery",
] as const satisfies readonly GatedFeature[];

export interface FeatureRequired {
  /** The plan to upgrade to for the feature; undefined when no plan of this server has it. */
  plan: Plan | undefined;
  /** The prompt's first words, stressed: "Custom domains are a Pro feature." */
  feature: string;
  /** What follows them: "Upgrade to Pro to add a domain."; null when no plan has the feature. */
  action: string | null;
  /** The server's refusal, in the same words. */
  message: string;
}

/** "a Pro", "an Archive": the article goes with the plan's name. */
function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;
}

interface Wording {
  feature: (plan: string) => string;
  action: (plan: string) => string;
  /** The refusal, where it is not the prompt's two parts in a row. */
  refusal?: (plan: string) => string;
  unavailable: string;
}

const WORDING: Record<GatedFeature, Wording> = {
  customDomains: {
    feature: (plan) => `Custom domains are ${withArticle(plan)} feature.`,
    action: (plan) => `Upgrade to ${plan} to add a domain.`,
    unavailable: "Custom domains are not available on this server.",
  },
  passwordProtection: {
    feature: (plan) => `Password protection is ${withArticle(plan)} feature.`,
    action: (plan) => `Upgrade to ${plan} to protect this site.`,
    unavailable: "Password protection is not available on this server.",
  },
  expiringLinks: {
    feature: (plan) => `Share links are ${withArticle(plan)} feature.`,
    action: (plan) => `Upgrade to ${plan} to share this site privately.`,
    unavailable: "Share links are not available on this server.",
  },
  privateSites: {
    feature: (plan) => `Private sites are ${withArticle(plan)} feature.`,
    action: (plan) => `Upgrade to ${plan} to make this site private.`,
    unavailable: "Private sites are not available on this server.",
  },
  siteExpiry: {
    feature: (plan) => `Site expiry and go-live times are ${withArticle(plan)} feature.`,
    action: (plan) => `Upgrade to ${plan} to schedule this site.`,
    unavailable: "Site expiry and go-live times are not available on this server.",
  },
  // The restore dialog names the feature and then says what it does, so its prompt reads as one sentence.
  pointInTimeRecovery: {
    feature: () => "Point-in-time restore",
    action: (plan) => `brings back the whole site as it was at any moment. It needs ${withArticle(plan)} plan.`,
    refusal: (plan) => `Restoring a site as it was at a moment requires ${withArticle(plan)} plan.`,
    unavailable: "Point-in-time restore is not available on this server.",
  },
};

/** The first plan, in the catalogue's order, that has the feature; undefined when none has. */
export function firstPlanWith(catalog: PlanCatalog, feature: PlanFeature): Plan | undefined {
  return catalog.plans.find((plan) => plan[feature]);
}

export function featureRequired(catalog: PlanCatalog, feature: GatedFeature): FeatureRequired {
  const wording = WORDING[feature];
  const plan = firstPlanWith(catalog, feature);
  if (!plan) return { plan, feature: wording.unavailable, action: null, message: wording.unavailable };
  const prompt = { feature: wording.feature(plan.name), action: wording.action(plan.name) };
  return { plan, ...prompt, message: wording.refusal?.(plan.name) ?? `${prompt.feature} ${prompt.action}` };
}
