// The Schedule card's conversions: datetime-local inputs hold the user's local wall time with no
// zone; the API takes and gives UTC ISO strings. Its form, and the header badge's words.
import { z } from "zod";
import { SCHEDULE_TEXT, scheduleState, UpdateScheduleRequest, type SiteResponse } from "../../../../common/sites";

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO time as a datetime-local value in the browser's zone ("2026-11-23T14:05"), or "". */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local wall time) as a UTC ISO string; "" is null; nonsense is undefined. */
export function fromLocalInput(value: string): string | null | undefined {
  if (!value.trim()) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const d = new Date(value); // no zone: the browser reads it as local time
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * The Schedule card's form: two datetime-local values in, the server's request out. A time that
 * cannot be read is said under its field first; then the server's own rules (expiry in the
 * future, go-live before expiry), so their messages too sit under their field at once.
 */
export const ScheduleForm = z.object({ expiresAt: z.string(), publishAt: z.string() }).transform((fields, ctx) => {
  const expiresAt = fromLocalInput(fields.expiresAt);
  const publishAt = fromLocalInput(fields.publishAt);
  if (expiresAt === undefined || publishAt === undefined) {
    if (expiresAt === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["expiresAt"],
        message: SCHEDULE_TEXT.invalidTime,
      });
    if (publishAt === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["publishAt"],
        message: SCHEDULE_TEXT.invalidTime,
      });
    return z.NEVER;
  }
  const parsed = UpdateScheduleRequest.safeParse({ expiresAt, publishAt });
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      ctx.addIssue({
        code: "custom",
        path: issue.path,
        message: issue.message,
      });
    return z.NEVER;
  }
  return parsed.data;
});
export type ScheduleFields = z.input<typeof ScheduleForm>;

/** "in 3 days", "in 5 hours", "in 10 minutes", "in less than a minute". */
export function timeUntil(at: Date, now: number = Date.now()): string {
  const minutes = Math.floor((at.getTime() - now) / 60_000);
  if (minutes < 1) return "in less than a minute";
  const [count, unit] =
    minutes >= 60 * 24 * 2 ? [Math.floor(minutes / (60 * 24)), "day"] : minutes >= 120 ? [Math.floor(minutes / 60), "hour"] : [minutes, "minute"];
  return `in ${count} ${unit}${count === 1 ? "" : "s"}`;
}

export type ScheduleBadge = {
  tone: "expired" | "scheduled" | "expires";
  label: string;
  title: string;
} | null;

/** The header's small badge: "Expired", "Goes live in 2 hours", "Expires in 3 days", or none. */
export function scheduleBadge(site: Pick<SiteResponse, "expires_at" | "publish_at">, now: number = Date.now()): ScheduleBadge {
  const state = scheduleState(site, now);
  const when = (d: Date) => d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  switch (state.kind) {
    case "expired":
      return {
        tone: "expired",
        label: "Expired",
        title: `Expired ${when(new Date(site.expires_at!))}: visitors see "This site has expired"`,
      };
    case "scheduled":
      return {
        tone: "scheduled",
        label: `Goes live ${timeUntil(state.at, now)}`,
        title: `Goes live ${when(state.at)}`,
      };
    case "expires":
      return {
        tone: "expires",
        label: `Expires ${timeUntil(state.at, now)}`,
        title: `Expires ${when(state.at)}`,
      };
    case "none":
      return null;
  }
}
