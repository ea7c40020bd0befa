// The plans dialog behind 'Upgrade to Pro': the server's plans side by side (GET /api/config:
// BERTH_PLANS_FILE's, or the built-in Free and Pro) and, for an account below plans it may ask
// for, the way up to each (UpgradeAction: the operator's billing page, or a request an admin
// answers). It names and highlights one of them: the plan its trigger named (a feature's card names
// the first plan with the feature), else the one 'Upgrade' offers. For an account offered nothing
// higher it only compares the plans.
import type { ReactNode } from "react";
import { Check, Minus } from "lucide-react";
import {
  findPlan,
  formatPlanLimit,
  offeredPlans,
  upgradeFor,
  upgradeTarget,
  versionsKept,
  type Plan,
  type PlanCatalog,
  type PlanId,
} from "../../../common/plans";
import { DASHBOARD_SHELL_TEXT as T, DASHBOARD_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { useStats } from "../../lib/queries";
import { usePlans } from "../../lib/usePlans";
import { Button } from "../ui/Button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "../ui/Dialog";
import { Skeleton } from "../ui/Skeleton";
import { UpgradeAction } from "./UpgradeAction";

const FEATURES: { key: keyof Plan; label: string | ((plan: Plan) => string) }[] = [
  { key: "customDomains", label: "Custom domains" },
  { key: "passwordProtection", label: "Password-protected links" },
  { key: "expiringLinks", label: "Expiring links" },
  { key: "privateSites", label: "Private sites" },
  { key: "siteExpiry", label: "Site expiry and go-live times" },
  {
    key: "fileVersioning",
    label: (plan) => {
      const kept = versionsKept(plan);
      return kept === null ? "File versioning: every version kept" : `File history of the last ${kept} versions`;
    },
  },
  { key: "pointInTimeRecovery", label: "Point-in-time restore" },
];

/** Wide enough for the plans side by side: two in the usual dialog, more in a wider one. */
const WIDTHS = ["max-w-md", "max-w-2xl", "max-w-4xl", "max-w-5xl"];
const COLUMNS = ["", "sm:grid-cols-2", "md:grid-cols-3", "sm:grid-cols-2 lg:grid-cols-4"];

/**
 * `children` is the trigger. Without `currentPlan`, the plan is read from GET /api/stats. `plan`
 * is the plan the trigger named, which the dialog puts first when the account may ask for it.
 */
export function UpgradeDialog({ children, currentPlan, plan }: { children: ReactNode; currentPlan?: PlanId | undefined; plan?: PlanId | undefined }) {
  const plans = usePlans();
  const count = plans?.plans.length ?? 2;
  return (
    <Dialog>
      <DialogTrigger asChild>{children}</DialogTrigger>
      <DialogContent className={WIDTHS[count - 1] ?? WIDTHS.at(-1)}>
        {plans ? (
          <PlansBody plans={plans} currentPlan={currentPlan} named={plan} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>{T.upgradeTitle}</DialogTitle>
              <DialogDescription className="sr-only">{T.upgradeTitle}</DialogDescription>
            </DialogHeader>
            <Skeleton className="mt-6 h-72 w-full" />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

// Mounted only while the dialog is open, so the stats request waits until someone asks.
function PlansBody({ plans, currentPlan, named }: { plans: PlanCatalog; currentPlan: PlanId | undefined; named: PlanId | undefined }) {
  const stats = useStats();
  const current = currentPlan ?? stats.data?.plan;
  const mine = current === undefined ? undefined : findPlan(plans, current);
  // Every plan this account may ask for, and the one the dialog is about: the plan its trigger
  // named when that is among them, else what 'Upgrade' offers; before the account's plan is known,
  // the named plan or the server's target.
  const choices = current === undefined ? [] : offeredPlans(plans, current);
  const offered =
    current === undefined
      ? ((named === undefined ? undefined : findPlan(plans, named)) ?? upgradeTarget(plans))
      : (choices.find((plan) => plan.id === named) ?? upgradeFor(plans, current) ?? choices[0]);
  return (
    <>
      <DialogHeader>
        <DialogTitle>{offered ? DASHBOARD_TEXT.upgrade(offered.name) : T.upgradeTitle}</DialogTitle>
        <DialogDescription>{offered ? T.upgradeBody(offered.name) : mine ? T.upgradeBodyPro(mine.name) : T.upgradeTitle}</DialogDescription>
      </DialogHeader>
      <div className={cn("mt-6 grid gap-4", COLUMNS[plans.plans.length - 1] ?? COLUMNS.at(-1))}>
        {plans.plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} current={plan.id === current} highlighted={plan.id === (offered ?? upgradeTarget(plans))?.id} />
        ))}
      </div>
      {current === undefined ? (
        <Skeleton className="mt-5 h-20 w-full" />
      ) : offered ? (
        <UpgradeAction plan={offered} choices={choices} focusPlan={named !== undefined && choices.length > 1} />
      ) : (
        <div className="mt-5 flex justify-end">
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </div>
      )}
    </>
  );
}

function PlanCard({ plan, current, highlighted }: { plan: Plan; current: boolean; highlighted: boolean }) {
  return (
    <section
      aria-label={`${plan.name} plan`}
      className={cn(
        "relative flex flex-col rounded-xl border p-5",
        highlighted && "border-primary/40 bg-gradient-to-b from-accent/70 to-background ring-1 ring-primary/20",
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold">{plan.name}</h3>
        {current && <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">{T.currentPlan}</span>}
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        <span className="font-medium text-foreground">{plan.price}</span>
        {plan.priceNote && ` ${plan.priceNote}`}
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div>
          <dt className="text-xs text-muted-foreground">Storage</dt>
          <dd className="text-xl font-semibold tracking-tight">{formatPlanLimit(plan.storageBytes)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Per file</dt>
          <dd className="text-xl font-semibold tracking-tight">{formatPlanLimit(plan.maxFileBytes)}</dd>
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
