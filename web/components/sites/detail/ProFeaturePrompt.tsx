// The note a Free user sees on a Pro-only setting, with the plans dialog one click away.
import { Sparkles } from "lucide-react";
import type { PlanId } from "../../../../common/plans";
import { UpgradeDialog } from "../../dashboard/UpgradeDialog";
import { Button } from "../../ui/Button";

export function ProFeaturePrompt({ feature, action, planId }: { feature: string; action: string; planId: PlanId }) {
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-primary/20 bg-primary/5 p-4 text-sm sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-muted-foreground">
        <span className="font-medium text-foreground">{feature}</span> {action}
      </p>
      <UpgradeDialog currentPlan={planId}>
        <Button type="button" size="sm" className="shrink-0">
          <Sparkles aria-hidden />
          Upgrade to Pro
        </Button>
      </UpgradeDialog>
    </div>
  );
}
