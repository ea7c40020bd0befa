// The plans dialog behind 'Upgrade to Pro'. Berth has no billing: the operator moves a user to Pro,
// so the dialog compares the plans and says whom to ask.
import type { ReactNode } from "react";
import { Check, Mail, Minus } from "lucide-react";
import { PLANS, formatPlanBytes, type Plan, type PlanId } from "../../../common/plans";
import { DASHBOARD_SHELL_TEXT as T, DASHBOARD_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { useStats } from "../../lib/queries";
import { usePublicConfig } from "../../lib/usePublicConfig";
import { Button } from "../ui/Button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "../ui/Dialog";
import { Skeleton } from "../ui/Skeleton";

const FEATURES: { key: keyof Plan; label: string | ((plan: Plan) => string) }[] = [
  { key: "customDomains", label: "Custom domains" },
  { key: "passwordProtection", label: "Password-protected links" },
  { key: "expiringLinks", label: "Expiring links" },
  { key: "privateSites", label: "Private sites" },
  { key: "siteExpiry", label: "Site expiry and go-live times" },
  {
    key: "deploymentsKept",
    label: (plan) => (plan.deploymentsKept === null ? "Every version of each site kept" : `Last ${plan.deploymentsKept} versions of each site`),
  },
  { key: "pointInTimeRecovery", label: "Point-in-time restore" },
];

/** `children` is the trigger. Without `currentPlan`, the plan is read from GET /api/stats. */
export function UpgradeDialog({ children, currentPlan }: { children: ReactNode; currentPlan?: PlanId | undefined }) {
  return (
    <Dialog>
      <DialogTrigger asChild>{children}</DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{DASHBOARD_TEXT.upgrade}</DialogTitle>
          <DialogDescription>{T.upgradeBody}</DialogDescription>
        </DialogHeader>
        <PlanGrid currentPlan={currentPlan} />
        <OperatorContact />
      </DialogContent>
    </Dialog>
  );
}

// Mounted only while the dialog is open, so the stats request waits until someone asks.
function PlanGrid({ currentPlan }: { currentPlan: PlanId | undefined }) {
  const stats = useStats();
  const current = currentPlan ?? stats.data?.plan;
  return (
    <div className="mt-6 grid gap-4 sm:grid-cols-2">
      {Object.values<Plan>(PLANS).map((plan) => (
        <PlanCard key={plan.id} plan={plan} current={plan.id === current} />
      ))}
    </div>
  );
}

function PlanCard({ plan, current }: { plan: Plan; current: boolean }) {
  const pro = plan.id === "pro";
  return (
    <section
      aria-label={`${plan.name} plan`}
      className={cn(
        "relative flex flex-col rounded-xl border p-5",
        pro && "border-primary/40 bg-gradient-to-b from-accent/70 to-background ring-1 ring-primary/20",
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold">{plan.name}</h3>
        {current && <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">{T.currentPlan}</span>}
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div>
          <dt className="text-xs text-muted-foreground">Storage</dt>
          <dd className="text-xl font-semibold tracking-tight">{formatPlanBytes(plan.storageBytes)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Per file</dt>
          <dd className="text-xl font-semibold tracking-tight">{formatPlanBytes(plan.maxFileBytes)}</dd>
        </div>
      </dl>
      <ul className="mt-5 flex flex-col gap-2.5 border-t pt-4 text-sm">
        {FEATURES.map(({ key, label }) => {
          // A feature with a plan-dependent label is part of every plan, in its measure.
          const included = typeof label === "function" || plan[key] === true;
          return (
            <li key={key} className={cn("flex items-center gap-2.5", !included && "text-muted-foreground")}>
              {included ? (
                <Check className="size-4 shrink-0 text-primary" aria-hidden />
              ) : (
                <Minus className="size-4 shrink-0 text-muted-foreground/60" aria-hidden />
              )}
              <span>
                {typeof label === "function" ? label(plan) : label}
                <span className="sr-only">{included ? ": included" : ": not included"}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function OperatorContact() {
  const config = usePublicConfig();
  const email = config.data?.contactEmail ?? null;
  return (
    <>
      <div className="mt-5 flex items-start gap-3 rounded-xl bg-muted/70 p-4 text-sm" aria-live="polite">
        <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
        {config.isPending ? (
          <Skeleton className="h-5 w-56" />
        ) : email ? (
          <p className="min-w-0">
            {T.upgradeContact}{" "}
            <a href={`mailto:${email}`} className="font-medium text-primary [overflow-wrap:anywhere] hover:underline">
              {email}
            </a>
            .
          </p>
        ) : (
          <p>{T.upgradeNoContact}</p>
        )}
      </div>
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {email && (
          <Button asChild>
            <a href={`mailto:${email}?subject=${encodeURIComponent(DASHBOARD_TEXT.upgrade)}`}>
              <Mail aria-hidden />
              Email the operator
            </a>
          </Button>
        )}
      </div>
    </>
  );
}
