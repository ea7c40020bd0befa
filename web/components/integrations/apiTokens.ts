// How API tokens read in the dashboard: each permission's name and what it allows, a token's
// scope, prefix, expiry and last use, and the new-token form's fields turned into a request.
import { z } from "zod";
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_PERMISSIONS,
  CreateApiTokenRequest,
  type ApiTokenPermission,
  type ApiTokenResponse,
} from "../../../common/apiTokens";
import { timeAgo } from "../../../common/format";
import { sessionAddress } from "../settings/sessions";

export const PERMISSION_TEXT: Record<ApiTokenPermission, { label: string; description: string }> = {
  read: { label: "Read only", description: "List and read sites, deployments, files and stats. Changes nothing." },
  deploy: { label: "Deploy", description: "Read, and also publish new versions and roll back." },
  full: { label: "Full access", description: "Everything you can do with sites and domains, except account and security settings." },
};

/** "All sites", or the one site's name. */
export function scopeLabel(token: Pick<ApiTokenResponse, "site">): string {
  return token.site ? token.site.name : "All sites";
}

/** The prefix as a person tells tokens apart by it: "berth_a1b2…". */
export function prefixLabel(token: Pick<ApiTokenResponse, "prefix">): string {
  return `${token.prefix}…`;
}

const day = (d: Date) => d.toLocaleDateString(undefined, { dateStyle: "medium" });
const when = (d: Date) => d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "Never expires", "Expires Mar 3, 2027" or "Expired Mar 3, 2026"; `expired` says which. */
export function expiryLabel(token: Pick<ApiTokenResponse, "expires_at">, now: Date = new Date()): { label: string; expired: boolean } {
  if (!token.expires_at) return { label: "Never expires", expired: false };
  const at = new Date(token.expires_at);
  if (at.getTime() <= now.getTime()) return { label: `Expired ${day(at)}`, expired: true };
  return { label: `Expires ${day(at)}`, expired: false };
}

/** "Never used", or "Last used 5 minutes ago from 203.0.113.7" with the exact time as `title`. */
export function lastUsedLabel(
  token: Pick<ApiTokenResponse, "last_used_at" | "last_used_ip">,
  now: Date = new Date(),
): { label: string; title?: string } {
  if (!token.last_used_at) return { label: "Never used" };
  const at = new Date(token.last_used_at);
  const address = sessionAddress(token.last_used_ip);
  return { label: `Last used ${timeAgo(at, now)}${address ? ` from ${address}` : ""}`, title: when(at) };
}

/** The expiry select's options: the days the dashboard offers, then "never". */
export const EXPIRY_OPTIONS: { value: string; label: string }[] = [
  ...API_TOKEN_EXPIRY_DAYS.map((days) => ({ value: String(days), label: days === 365 ? "1 year" : `${days} days` })),
  { value: "never", label: "Never" },
];

/** The scope select's value for "all my sites"; any other value is a site's id. */
export const ALL_SITES = "";

export interface NewTokenFields {
  name: string;
  /** ALL_SITES, or the id of the one site the token covers. */
  scope: string;
  permission: ApiTokenPermission;
  /** Days as text, or "never". */
  expiry: string;
}

export type NewTokenField = keyof NewTokenFields;

/**
 * A field of the server's request and the form field its message shows under. The permission has
 * no line of its own (the radios always hold one), so its message is the toast's alone.
 */
export const REQUEST_FIELD: Partial<Record<string, Exclude<NewTokenField, "permission">>> = {
  name: "name",
  siteId: "scope",
  expiresInDays: "expiry",
};

/** The new-token dialog's form: its fields in, the server's own request out (its rules, its messages). */
export const NewTokenForm = z
  .object({
    name: z.string(),
    scope: z.string(),
    permission: z.enum(API_TOKEN_PERMISSIONS),
    expiry: z.string(),
  })
  .transform((fields, ctx) => {
    const request = CreateApiTokenRequest.safeParse({
      name: fields.name,
      siteId: fields.scope === ALL_SITES ? null : fields.scope,
      permission: fields.permission,
      expiresInDays: fields.expiry === "never" ? null : Number(fields.expiry),
    });
    if (request.success) return request.data;
    for (const issue of request.error.issues) {
      const field = REQUEST_FIELD[String(issue.path[0])] ?? "permission";
      ctx.addIssue({ code: "custom", path: [field], message: issue.message });
    }
    return z.NEVER;
  });
export type NewTokenRequest = z.output<typeof NewTokenForm>;
