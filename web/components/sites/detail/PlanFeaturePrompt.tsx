// The note a user sees on a setting their plan lacks, naming the first of the server's plans that
// has it, with the plans dialog, opened on that plan, one click away; where no plan has it, only the note saying so.
import { Sparkles } from "lucide-react";
import { featureRequired, type GatedFeature } from "../../../../common/featureRequired";
import type { PlanId } from "../../../../common/plans";
import { DASHBOARD_TEXT } from "../../../../common/texts";
import { usePlans } from "../../../lib/usePlans";
import { UpgradeDialog } from "../../dashboard/UpgradeDialog";
import { Button } from "../../ui/Button";
import { Skeleton } from "../../ui/Skeleton";

export function PlanFeaturePrompt({ feature, planId }: { feature: GatedFeature; planId: PlanId }) {
  const plans = usePlans();
  if (!plans) return <Skeleton className="h-[4.25rem] w-full sm:col-span-2" />;
  const prompt = featureRequired(plans, feature);
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-primary/20 bg-primary/5 p-4 text-sm sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-muted-foreground">
        <span className="font-medium text-foreground">{prompt.feature}</span>
        {prompt.action && ` ${prompt.action}`}
      </p>
      {prompt.plan && (
        <UpgradeDialog currentPlan={planId} plan={prompt.plan.id}>
          <Button type="button" size="sm" className="shrink-0">
            <Sparkles aria-hidden />
            {DASHBOARD_TEXT.upgrade(prompt.plan.name)}
          </Button>
        </UpgradeDialog>
      )}
    </div>
  );
}
