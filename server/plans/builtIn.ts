// The plans a server offers when the operator gives none (BERTH_PLANS_FILE unset): Free, which
// every account starts on, and Pro, which 'Upgrade to Pro' offers. Pro's price is the operator's
// to set, so its label asks visitors to get in touch rather than invent a figure.
import type { Plan, PlanCatalog } from "../../common/plans";

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const FREE_PLAN = {
  id: "free",
  name: "Free",
  price: "$0",
  priceNote: "forever",
  description: "For personal pages, documents and quick shares.",
  storageBytes: 500 * MB,
  maxFileBytes: 50 * MB,
  deploymentsKept: 10,
  customDomains: false,
  passwordProtection: false,
  expiringLinks: false,
  privateSites: false,
  siteExpiry: false,
  fileVersioning: false,
  pointInTimeRecovery: false,
} satisfies Plan;

export const PRO_PLAN = {
  id: "pro",
  name: "Pro",
  price: "Custom",
  priceNote: "per account",
  description: "For teams and sites that need more room and control.",
  storageBytes: 5 * GB,
  maxFileBytes: 250 * MB,
  deploymentsKept: null,
  customDomains: true,
  passwordProtection: true,
  expiringLinks: true,
  privateSites: true,
  siteExpiry: true,
  fileVersioning: true,
  pointInTimeRecovery: true,
} satisfies Plan;

export const BUILT_IN_PLANS: PlanCatalog = { plans: [FREE_PLAN, PRO_PLAN], defaultPlan: "free", upgradeTo: "pro" };
