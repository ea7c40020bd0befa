// The plans an operator can give a user, and what each allows. The landing page, the docs and the
// plans dialog show these numbers; the server enforces them. Sizes are bytes, base 1024.

const MB = 1024 * 1024;
const GB = 1024 * MB;

export type PlanId = "free" | "pro";

export interface Plan {
  id: PlanId;
  name: string;
  /** Total of all files a user stores, across every site and deployment. */
  storageBytes: number;
  /** Largest single file the user may upload. */
  maxFileBytes: number;
  customDomains: boolean;
  passwordProtection: boolean;
  /** Share links to a site (with their expiry, password and view limit). */
  expiringLinks: boolean;
  /** A site served only to browsers that opened one of its share links (PUT /api/sites/:id/visibility). */
  privateSites: boolean;
  /** An expiry date and a go-live date on a site (PATCH /api/sites/:id/schedule). */
  siteExpiry: boolean;
  fileVersioning: boolean;
  /** Deployments kept per site (the live one is always kept too); null keeps every one. */
  deploymentsKept: number | null;
  pointInTimeRecovery: boolean;
}

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: "free",
    name: "Free",
    storageBytes: 500 * MB,
    maxFileBytes: 50 * MB,
    customDomains: false,
    passwordProtection: false,
    expiringLinks: false,
    privateSites: false,
    siteExpiry: false,
    fileVersioning: false,
    deploymentsKept: 10,
    pointInTimeRecovery: false,
  },
  pro: {
    id: "pro",
    name: "Pro",
    storageBytes: 5 * GB,
    maxFileBytes: 250 * MB,
    customDomains: true,
    passwordProtection: true,
    expiringLinks: true,
    privateSites: true,
    siteExpiry: true,
    fileVersioning: true,
    deploymentsKept: null,
    pointInTimeRecovery: true,
  },
};

/** The switches a plan turns on. The server refuses a change that needs one the user's plan lacks. */
export const PLAN_FEATURES = [
  "customDomains",
  "passwordProtection",
  "expiringLinks",
  "privateSites",
  "siteExpiry",
  "fileVersioning",
  "pointInTimeRecovery",
] as const satisfies readonly (keyof Plan)[];
export type PlanFeature = (typeof PLAN_FEATURES)[number];
export type PlanFeatures = Record<PlanFeature, boolean>;

export function featuresOf(plan: Plan): PlanFeatures {
  return Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, plan[feature]])) as PlanFeatures;
}

/** A plan size for marketing copy: "500 MB", "5 GB". */
export function formatPlanBytes(bytes: number): string {
  return bytes >= GB ? `${+(bytes / GB).toFixed(2)} GB` : `${+(bytes / MB).toFixed(2)} MB`;
}
