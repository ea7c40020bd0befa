// Account Information: the real e-mail, the plan (with the plans dialog) and the sign-up date.
import type { ReactNode } from "react";
import { Sparkles } from "lucide-react";
import { findPlan } from "../../../common/plans";
import { SETTINGS_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { useSession } from "../../lib/session";
import { usePlans } from "../../lib/usePlans";
import { UpgradeDialog } from "../dashboard/UpgradeDialog";
import { Button } from "../ui/Button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/Card";
import { Skeleton } from "../ui/Skeleton";

const T = SETTINGS_TEXT.account;

/** "March 4, 2026" in the reader's locale. */
export function formatMemberSince(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    year: "numeric",
    month: "long",
    day: "numeric",
  });
}

export function AccountInfo() {
  const { user, account, memberSince } = useSession();
  const plans = usePlans();
  const plan = account && plans ? findPlan(plans, account.plan) : undefined;
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">{T.title}</CardTitle>
      </CardHeader>
      <CardContent className="px-0 pb-2">
        <dl className="divide-y">
          <Row label={T.email}>
            <span className="break-all">{user?.email}</span>
          </Row>
          <Row label={T.accountType}>
            {plan ? (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span
                  className={cn(
                    "rounded-full px-2.5 py-0.5 text-xs font-medium",
                    plan.id !== plans?.defaultPlan ? "bg-primary text-primary-foreground" : "bg-muted text-foreground",
                  )}
                >
                  {plan.name}
                </span>
                <UpgradeDialog currentPlan={plan.id}>
                  <Button variant="link" size="sm" className="h-auto p-0">
                    <Sparkles aria-hidden />
                    {T.comparePlans}
                  </Button>
                </UpgradeDialog>
              </div>
            ) : (
              <Skeleton className="h-5 w-16 rounded-full" />
            )}
          </Row>
          <Row label={T.memberSince}>
            {memberSince ? <time dateTime={memberSince}>{formatMemberSince(memberSince)}</time> : <Skeleton className="h-5 w-32" />}
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 px-6 py-3.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium">{children}</dd>
    </div>
  );
}
