import { z } from "zod";

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

/** GET /api/health: "ok" once migrations have run and the database answers; "unavailable" (503) otherwise. */
export const HealthResponse = z.object({ status: z.enum(["ok", "unavailable"]) });
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Public settings the pages need: where sites live and how to reach the operator. */
export const PublicConfigResponse = z.object({
  appUrl: z.string(),
  sitesDomain: z.string(),
  contactEmail: z.string().nullable(),
  contactAddress: z.string().nullable(),
  contactPhone: z.string().nullable(),
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
    plan: z.enum(["free", "pro"]),
    isAdmin: z.boolean().describe("Shows the Admin page in the sidebar."),
    twoFactorEnabled: z.boolean(),
  }),
});
export type MeResponse = z.infer<typeof MeResponse>;
