// Pending requests for a higher plan (Pro with the built-in plans), oldest first: approve (sets the
// plan asked for, as choosing it in the user's menu does) or decline. The user is notified either
// way. Where users may ask for more than one plan, each row names the plan asked for.
import { Check, Sparkles, X } from "lucide-react";
import { toast } from "sonner";
import type { AdminUpgradeRequest } from "../../../common/support";
import { timeAgo } from "../../../common/format";
import { findPlan, offeredPlans, requestablePlans, upgradeTarget, type PlanCatalog } from "../../../common/plans";
import { useAdminUpgradeRequests, useAnswerUpgradeRequest } from "../../lib/adminQueries";
import { errorDescription } from "../../lib/api";
import { cn } from "../../lib/cn";
import { usePlans } from "../../lib/usePlans";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { SkeletonRow } from "../ui/Skeleton";
import { Spinner } from "../ui/Spinner";
import { Pagination } from "./Pagination";

/** "When a user on Free asks for Pro …": the plan below the one asked for is named when it is the only one. */
function emptyBody(plans: PlanCatalog | undefined): string {
  const target = plans && upgradeTarget(plans);
  if (!plans || !target || requestablePlans(plans).length > 1)
    return "When a user asks for a plan from the plans dialog, the request waits here for your answer.";
  const below = plans.plans.slice(0, plans.plans.indexOf(target));
  const who = below.length === 1 ? `a user on ${below[0]!.name}` : "a user";
  return `When ${who} asks for ${target.name} from the plans dialog, the request waits here for your answer.`;
}

function requestsLabel(plans: PlanCatalog | undefined): string {
  const target = plans && upgradeTarget(plans);
  return target && requestablePlans(plans).length <= 1 ? `Requests for ${target.name}` : "Upgrade requests";
}

export function UpgradeRequests({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const requests = useAdminUpgradeRequests(page);
  const plans = usePlans();
  const data = requests.data;
  if (!data) {
    return requests.isError ? (
      <LoadError
        title="Could not load requests"
        message={errorDescription(requests.error)}
        onRetry={() => void requests.refetch()}
        retrying={requests.isFetching}
      />
    ) : (
      <Card className="divide-y">
        {[0, 1].map((i) => (
          <SkeletonRow key={i} />
        ))}
      </Card>
    );
  }
  if (data.total === 0) {
    return <Placeholder icon={<Sparkles aria-hidden />} title="No requests waiting" body={emptyBody(plans)} />;
  }
  return (
    <div className={cn("flex flex-col gap-4 transition-opacity", requests.isPlaceholderData && "opacity-60")}>
      <Card className="divide-y">
        <ul aria-label={requestsLabel(plans)} className="divide-y">
          {data.requests.map((request) => (
            <RequestRow key={request.id} request={request} />
          ))}
        </ul>
      </Card>
      {data.total > data.pageSize && (
        <Pagination page={page} pageSize={data.pageSize} shown={data.requests.length} total={data.total} onPage={onPage} label="Pages of requests" />
      )}
    </div>
  );
}

function RequestRow({ request }: { request: AdminUpgradeRequest }) {
  const answer = useAnswerUpgradeRequest();
  const plans = usePlans();
  const current = plans && findPlan(plans, request.user.plan);
  const asked = plans && request.plan !== null ? findPlan(plans, request.plan) : undefined;
  // What an approval moves the account to; nothing when it is on that plan (or above) already.
  const target = asked && plans && offeredPlans(plans, request.user.plan).includes(asked) ? asked : undefined;
  // With one plan to ask for the list's label names it; with several, each row does.
  const named = asked && plans && requestablePlans(plans).length > 1 ? asked : undefined;
  // mutateAsync, not mutate's callbacks: the answered row leaves the list (and unmounts) before
  // per-call callbacks would run.
  const send = async (decision: "approve" | "decline") => {
    try {
      await answer.mutateAsync({ id: request.id, decision });
      toast.success(decision === "approve" ? `${request.user.email} is on ${target?.name ?? "the new plan"} now` : "Request declined", {
        description:
          decision === "approve" ? "They'll get a notification." : `They'll get a notification and stay on ${current?.name ?? "their plan"}.`,
      });
    } catch (error) {
      toast.error("Could not answer the request", { description: errorDescription(error) });
    }
  };
  const pending = answer.isPending ? answer.variables.decision : null;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium [overflow-wrap:anywhere]">{request.user.name || request.user.email}</p>
        <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
          {request.user.email}
          {named && ` · asks for ${named.name}`} · asked {timeAgo(new Date(request.createdAt))}
          {current && !target && ` · already on ${current.name}`}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void send("decline")}
          disabled={answer.isPending}
          aria-label={`Decline ${request.user.email}'s request`}
        >
          {pending === "decline" ? <Spinner className="size-4 text-current" label="Declining" /> : <X aria-hidden />}
          Decline
        </Button>
        <Button size="sm" onClick={() => void send("approve")} disabled={answer.isPending} aria-label={`Approve ${request.user.email}'s request`}>
          {pending === "approve" ? <Spinner className="size-4 text-current" label="Approving" /> : <Check aria-hidden />}
          Approve
        </Button>
      </div>
    </li>
  );
}
