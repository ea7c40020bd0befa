import { z } from "zod";
import { PlanCatalog } from "./plans";

/** Every API error has this shape. */
export const ErrorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    detail: z.string().optional().describe("A second line for the toast: its description, in the product's exact wording."),
    fields: z.record(z.string(), z.string()).optional().describe("For an invalid body or query: each field's problem, by its name."),
  }),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** A list's `?page=` query field: from 1, absent for the first; `description` says its size and order. */
export function pageQueryField(description: string) {
  return z.coerce
    .number({ error: "Page must be a number" })
    .int("Page must be a whole number")
    .min(1, "Page starts at 1")
    .max(1_000_000)
    .optional()
    .describe(description);
}

/**
 * GET /api/health: "ok" once migrations have run and the database answers; "draining" (503) from
 * the moment the process is told to stop; "unavailable" (503) when the database does not answer.
 */
export const HealthResponse = z.object({ status: z.enum(["ok", "draining", "unavailable"]) });
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Public settings the pages need: where sites live, how to reach the operator, and the plans. */
export const PublicConfigResponse = z.object({
  appUrl: z.string(),
  sitesDomain: z.string(),
  contactEmail: z.string().nullable(),
  contactAddress: z.string().nullable(),
  contactPhone: z.string().nullable(),
  version: z.string().describe("The version of Berth this server runs."),
  upgradeUrl: z
    .string()
    .nullable()
    .describe(
      "The operator's billing page (BERTH_UPGRADE_URL), where {email} stands for the user's address; null when users request an upgrade from an admin.",
    ),
  plans: PlanCatalog.describe(
    "The plans this server offers (BERTH_PLANS_FILE, else the built-in Free and Pro), as it enforces them: the pages show these, never numbers of their own. A null limit is unlimited.",
  ),
  backupDaily: z.boolean().describe("Whether the server writes a backup every day (BERTH_BACKUP_DAILY)."),
});
export type PublicConfigResponse = z.infer<typeof PublicConfigResponse>;

export const LegalDocumentResponse = z.object({
  title: z.string(),
  markdown: z.string(),
  custom: z.boolean(),
});
export type LegalDocumentResponse = z.infer<typeof LegalDocumentResponse>;

export const MeResponse = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    createdAt: z.string(),
  }),
  profile: z.object({
    id: z.string(),
    full_name: z.string().nullable(),
    company: z.string().nullable(),
    website: z.string().nullable(),
    avatar_url: z.string().nullable(),
    updated_at: z.string(),
  }),
  account: z.object({
    plan: z.string().describe("The id of one of the server's plans (GET /api/config)."),
    isAdmin: z.boolean().describe("Shows the Admin page in the sidebar."),
    twoFactorEnabled: z.boolean(),
  }),
});
export type MeResponse = z.infer<typeof MeResponse>;
