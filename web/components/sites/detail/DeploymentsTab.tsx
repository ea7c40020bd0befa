// The Deployments tab: every version, newest first, which one is live, and a one-click switch to
// any earlier or later successful version. Status changes arrive by server events.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { History, Rocket } from "lucide-react";
import { SITE_TEXT, type DeploymentResponse, type SiteResponse } from "../../../../common/sites";
import { useDeployments, useStats } from "../../../lib/queries";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { LoadError } from "../../ui/LoadError";
import { Placeholder } from "../../ui/Placeholder";
import { Loading, SkeletonRow } from "../../ui/Skeleton";
import { Spinner } from "../../ui/Spinner";
import { displayUrl } from "../siteList";
import { useNow } from "../../../lib/useNow";
import { useDeploySite, useRollback } from "./actions";
import { DeploymentCard } from "./DeploymentCard";

export function DeploymentsTab({ site }: { site: SiteResponse }) {
  const deployments = useDeployments(site.id);
  const deploy = useDeploySite(site.id);
  const rollback = useRollback(site.id);
  const [target, setTarget] = useState<DeploymentResponse | null>(null);
  const now = useNow(30_000);
  const list = deployments.data;
  const stats = useStats();
  const kept = stats.data?.deployments_kept;
  const live = list?.find((deployment) => deployment.is_live) ?? null;
  const goingBack = target !== null && live !== null && target.version < live.version;

  useEffect(() => {
    if (deployments.error)
      toast.error("Failed to load deployments", {
        description: deployments.error.message,
      });
  }, [deployments.error, deployments.errorUpdatedAt]);

  return (
    <section aria-labelledby="deployments-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="deployments-heading" className="text-lg font-semibold tracking-tight">
            {SITE_TEXT.recentDeployments}
          </h2>
          <p className="mt-0.5 text-sm text-muted-foreground">
            Every change publishes a new version. Each keeps its own address, so you can return to it at any time.
            {kept !== null && kept !== undefined && <> Your plan keeps the last {kept}; older versions are removed when you publish.</>}
          </p>
        </div>
        <Button onClick={() => deploy.mutate()} disabled={site.is_deleted || deploy.isPending} className="shrink-0">
          {deploy.isPending ? <Spinner className="size-4 text-current" label="Deploying" /> : <Rocket aria-hidden />}
          {SITE_TEXT.deployNow}
        </Button>
      </div>

      {!list && deployments.isError ? (
        <LoadError
          title="Failed to load deployments"
          message={deployments.error.message}
          onRetry={() => void deployments.refetch()}
          retrying={deployments.isFetching}
        />
      ) : !list ? (
        <Loading label="Loading deployments" className="flex flex-col gap-3">
          {[0, 1, 2].map((row) => (
            <SkeletonRow key={row} media="size-9 rounded-full" lines={["w-48", "w-64"]} className="gap-3.5 rounded-xl border bg-card p-5" />
          ))}
        </Loading>
      ) : list.length === 0 ? (
        <Placeholder
          heading="h3"
          icon={<History className="size-6" aria-hidden />}
          title={SITE_TEXT.noDeployments}
          body={SITE_TEXT.noDeploymentsDescription}
        />
      ) : (
        <ol className="flex flex-col gap-3">
          {list.map((deployment) => (
            <DeploymentCard
              key={deployment.id}
              deployment={deployment}
              live={live}
              now={now}
              canChangeLive={!site.is_deleted}
              onMakeLive={setTarget}
            />
          ))}
        </ol>
      )}

      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={goingBack ? `Roll back to version ${target?.version}?` : `Make version ${target?.version} live?`}
        description={
          <>
            Visitors of <span className="font-medium text-foreground">{displayUrl(site)}</span> will see version {target?.version} right away. No
            version is deleted, so you can switch back at any time.
          </>
        }
        confirmLabel={goingBack ? "Roll back" : "Make live"}
        pendingLabel="Switching"
        failureTitle="Failed to change the live version"
        onConfirm={() => (target ? rollback.mutateAsync(target) : undefined)}
      />
    </section>
  );
}
