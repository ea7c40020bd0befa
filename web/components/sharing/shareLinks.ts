// How share links and their opens read in the dashboard: views, expiry, the access log's country
// and browser, and the new-link form's fields turned into a request.
import { z } from "zod";
import { CreateShareLinkRequest, SHARE_LINK_TEXT, type ShareLinkResponse } from "../../../common/shareLinks";
import { parseUserAgent } from "../../../common/userAgent";
import { fromLocalInput, timeUntil } from "../sites/detail/schedule";

/** "3 / 10" with a limit, "3 views" (or "1 view") without. */
export function formatViews(views: number, maxViews: number | null): string {
  if (maxViews !== null) return `${views} / ${maxViews}`;
  return `${views} ${views === 1 ? "view" : "views"}`;
}

const when = (d: Date) => d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "No expiry", "Expires in 3 days" or "Expired Mar 3, 2026, 2:05 PM"; `title` gives the exact time. */
export function expiryText(link: Pick<ShareLinkResponse, "expires_at">, now: number = Date.now()): { label: string; title: string | undefined } {
  if (!link.expires_at) return { label: "No expiry", title: undefined };
  const at = new Date(link.expires_at);
  if (at.getTime() <= now) return { label: `Expired ${when(at)}`, title: undefined };
  return {
    label: `Expires ${timeUntil(at, now)}`,
    title: `Expires ${when(at)}`,
  };
}

/** A country's name from its ISO code ("DE" → "Germany"), the code if unnamed, "—" if unknown. */
export function countryLabel(code: string | null, locale?: string): string {
  if (!code) return "—";
  try {
    return (
      new Intl.DisplayNames(locale ? [locale] : undefined, {
        type: "region",
      }).of(code.toUpperCase()) ?? code
    );
  } catch {
    return code; // Not a region code Intl knows.
  }
}

/** "Chrome 131 on macOS", "Firefox 133", or "Unknown browser". */
export function browserLabel(userAgent: string | null): string {
  const { browser, os } = parseUserAgent(userAgent);
  return os ? `${browser} on ${os}` : browser;
}

export interface NewLinkFields {
  name: string;
  /** A datetime-local value, "" for none. */
  expiresAt: string;
  password: string;
  /** The number field's text, "" for no limit. */
  maxViews: string;
}

export type NewLinkErrors = Partial<Record<"name" | "expiresAt" | "password" | "maxViews", string>>;

/** The form's fields as a request the server accepts, or the message for each field that is wrong. */
export function newLinkRequest(fields: NewLinkFields): { ok: true; body: CreateShareLinkRequest } | { ok: false; errors: NewLinkErrors } {
  const errors: NewLinkErrors = {};
  const expiresAt = fromLocalInput(fields.expiresAt);
  if (expiresAt === undefined) errors.expiresAt = SHARE_LINK_TEXT.invalidTime;
  const views = fields.maxViews.trim();
  const maxViews = views === "" ? null : /^\d+$/.test(views) ? Number(views) : Number.NaN;
  if (Number.isNaN(maxViews)) errors.maxViews = SHARE_LINK_TEXT.maxViews;
  const body = {
    name: fields.name,
    expiresAt: expiresAt ?? null,
    password: fields.password === "" ? null : fields.password,
    maxViews: Number.isNaN(maxViews) ? null : maxViews,
  };
  const parsed = CreateShareLinkRequest.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof NewLinkErrors;
      errors[field] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body };
}

/** The new-link dialog's form: its fields in, the request out, or each message under its field. */
export const NewLinkForm = z
  .object({
    name: z.string(),
    expiresAt: z.string(),
    password: z.string(),
    maxViews: z.string(),
  })
  .transform((fields, ctx) => {
    const request = newLinkRequest(fields);
    if (request.ok) return request.body;
    for (const [field, message] of Object.entries(request.errors)) ctx.addIssue({ code: "custom", path: [field], message });
    return z.NEVER;
  });
