// The admin page's pure rules: the page number in the address, the range caption, and what an
// admin may do to a given user.
import { z } from "zod";
import type { AdminUser } from "../../../common/admin";

/** `?page=` as a page number from 1; anything else is page 1. */
export function parsePageParam(value: string | null): number {
  if (!value || !/^\d+$/.test(value)) return 1;
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The rows a page shows, 1-based and inclusive: page 2 of 123 by 50 is 51..100. */
export function pageRange(page: number, pageSize: number, shown: number, total: number): { from: number; to: number } {
  if (shown === 0) return { from: 0, to: 0 };
  const from = (page - 1) * pageSize + 1;
  return { from, to: Math.min(total, from + shown - 1) };
}

export type AdminAction = "plan" | "ban" | "admin" | "passwordReset" | "delete";

/**
 * Why an action is unavailable for this user, or null when it is allowed. Nothing is allowed on
 * one's own account (an admin could lock themself out); a config admin cannot be demoted, banned
 * or deleted from the page, only after leaving BERTH_ADMIN_EMAILS (the server refuses it too).
 */
export function blockedReason(
  user: Pick<AdminUser, "id" | "adminByConfig">,
  selfId: string | undefined,
  action: AdminAction,
): "self" | "config" | null {
  if (user.id === selfId) return "self";
  if (user.adminByConfig && (action === "admin" || action === "ban" || action === "delete")) return "config";
  return null;
}

export function formatJoined(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    month: "short",
    day: "numeric",
    year: "numeric",
  });
}

/** The delete dialog's typed confirmation: the address, ignoring case and surrounding spaces. */
export function confirmsEmail(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.toLowerCase();
}

export interface TypedEmail {
  typed: string;
}

/** The delete dialog's form: valid once the typed text confirms `email`. */
export function typedEmailConfirmation(email: string) {
  return z.object({
    typed: z.string().refine((typed) => email !== "" && confirmsEmail(typed, email)),
  });
}
