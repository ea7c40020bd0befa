// The pieces of one user shown in both the table and the phone cards: who, plan, status, storage.
import { ShieldCheck } from "lucide-react";
import type { AdminUser } from "../../../common/admin";
import { formatBytes } from "../../../common/format";
import { findPlan, formatPlanBytes } from "../../../common/plans";
import { ADMIN_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { usePlans } from "../../lib/usePlans";
import { initialFor } from "../dashboard/userDisplay";
import { usageBarWidth, usagePercent } from "../sites/usage";

const PILL = "inline-flex h-6 shrink-0 items-center gap-1.5 rounded-full border px-2 text-xs font-medium whitespace-nowrap";

export function UserIdentity({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span
        aria-hidden
        className={cn(
          "flex size-9 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-primary to-violet-500 text-sm font-semibold text-primary-foreground",
          user.bannedAt && "grayscale",
        )}
      >
        {initialFor(user.name, user.email)}
      </span>
      <div className="min-w-0">
        <p className="flex min-w-0 items-center gap-1.5">
          <span className="truncate font-medium">{user.name.trim() || user.email}</span>
          {user.isAdmin && <AdminBadge />}
          {isSelf && <span className="shrink-0 rounded bg-muted px-1.5 py-px text-[11px] font-medium text-muted-foreground">{ADMIN_TEXT.you}</span>}
        </p>
        <p className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
          <span className="truncate" title={user.email}>
            {user.email}
          </span>
          {!user.emailVerified && (
            <span
              className="shrink-0 rounded border border-warning/40 bg-warning/10 px-1 text-[10px] leading-4 font-medium text-foreground/70"
              title="The e-mail address has not been confirmed yet"
            >
              {ADMIN_TEXT.unverified}
            </span>
          )}
        </p>
      </div>
    </div>
  );
}

export function AdminBadge() {
  return (
    <span
      className="inline-flex shrink-0 items-center gap-1 rounded-full bg-primary/10 px-1.5 py-px text-[11px] font-semibold text-primary"
      title="Admin"
    >
      <ShieldCheck className="size-3" aria-hidden />
      {ADMIN_TEXT.adminBadge}
    </span>
  );
}

/** The plan's name; any plan but the default one stands out. */
export function PlanBadge({ plan }: { plan: AdminUser["plan"] }) {
  const plans = usePlans();
  const standsOut = plans !== undefined && plan !== plans.defaultPlan;
  return (
    <span
      className={cn(PILL, standsOut ? "border-primary/25 bg-primary/10 text-primary" : "border-border bg-muted text-muted-foreground")}
      data-testid="plan-badge"
    >
      {(plans && findPlan(plans, plan)?.name) ?? plan}
    </span>
  );
}

/** Active or Banned. (An unconfirmed address is marked beside the address itself.) */
export function StatusBadge({ user }: { user: AdminUser }) {
  return user.bannedAt ? (
    <span
      className={cn(PILL, "border-destructive/25 bg-destructive/10 text-destructive")}
      title={`Banned ${new Date(user.bannedAt).toLocaleString()}`}
    >
      <span className="size-1.5 rounded-full bg-destructive" aria-hidden />
      {ADMIN_TEXT.banned}
    </span>
  ) : (
    <span className={cn(PILL, "border-success/25 bg-success/10 text-success")}>
      <span className="size-1.5 rounded-full bg-success" aria-hidden />
      {ADMIN_TEXT.active}
    </span>
  );
}

/** "12.5 MB of 500 MB" over (or, in a row, beside) a thin bar that turns red near the quota. */
export function StorageUsage({ user, row = false }: { user: AdminUser; row?: boolean }) {
  const plans = usePlans();
  const plan = plans && findPlan(plans, user.plan);
  // Unknown until the plans arrive; none for an unlimited plan, which shows no bar.
  const quota = plan?.storageBytes ?? null;
  const percent = quota === null ? 0 : usagePercent(user.storageBytes, quota);
  return (
    <div className={cn("flex", row ? "min-w-0 items-center gap-3" : "min-w-32 flex-col gap-1.5")}>
      <span className="text-sm whitespace-nowrap tabular-nums">
        {formatBytes(user.storageBytes)}
        {plan && <span className="text-muted-foreground">{quota === null ? " · no limit" : ` of ${formatPlanBytes(quota)}`}</span>}
      </span>
      <span
        className={cn("h-1.5 overflow-hidden rounded-full bg-muted", row ? "min-w-12 flex-1" : "w-full max-w-40")}
        role="meter"
        aria-label="Storage used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span
          className={cn("block h-full rounded-full", percent >= 90 ? "bg-destructive" : "bg-primary")}
          style={{ width: `${quota === null ? 0 : usageBarWidth(user.storageBytes, quota)}%` }}
        />
      </span>
    </div>
  );
}
