import { ArrowUpRight, CheckCircle2, Clock, FileStack, HardDrive, Redo2, Undo2, XCircle } from "lucide-react";
import { formatBytes, timeAgo } from "../../../../common/format";
import { SITE_TEXT, type DeploymentResponse } from "../../../../common/sites";
import { cn } from "../../../lib/cn";
import { Button } from "../../ui/Button";
import { Spinner } from "../../ui/Spinner";
import { CheckResults } from "./CheckResults";

export function DeploymentCard({
  deployment,
  live,
  now,
  canChangeLive,
  onMakeLive,
}: {
  deployment: DeploymentResponse;
  /** The version visitors see now; null while none is. */
  live: DeploymentResponse | null;
  now: Date;
  canChangeLive: boolean;
  onMakeLive: (deployment: DeploymentResponse) => void;
}) {
  const { status } = deployment;
  const created = new Date(deployment.created_at);
  // Older than the live one: going back. Newer (after a roll back): going forward again.
  const rollback = live !== null && deployment.version < live.version;

  return (
    <li
      className={cn(
        "flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-xs sm:flex-row sm:items-center sm:p-5",
        deployment.is_live && "border-success/40 ring-1 ring-success/15",
      )}
    >
      <div className="flex min-w-0 flex-1 gap-3.5">
        <StatusIcon status={status} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">Version {deployment.version}</h3>
            {deployment.is_live && (
              <span className="inline-flex h-5 items-center gap-1 rounded-full bg-success px-2 text-xs font-semibold text-white">
                <span className="size-1.5 rounded-full bg-white" aria-hidden />
                Live
              </span>
            )}
            {deployment.draft && !deployment.is_live && (
              <span
                className="inline-flex h-5 items-center rounded-full border px-2 text-xs font-semibold text-muted-foreground"
                title={SITE_TEXT.draftBadgeTitle}
              >
                {SITE_TEXT.draftBadge}
              </span>
            )}
            <StatusText status={status} />
          </div>
          {deployment.note && <p className="mt-1 truncate text-sm text-foreground/80">{deployment.note}</p>}
          {status === "failed" && deployment.error && (
            <p className="mt-2 rounded-md border border-destructive/20 bg-destructive/5 px-3 py-2 font-mono text-xs text-destructive">
              {deployment.error}
            </p>
          )}
          {status === "success" && deployment.check && (
            <div className="mt-2">
              <CheckResults siteId={deployment.site_id} deploymentId={deployment.id} check={deployment.check} canFix={canChangeLive} />
            </div>
          )}
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <li className="flex items-center gap-1.5">
              <Clock className="size-3.5" aria-hidden />
              <time dateTime={deployment.created_at} title={created.toLocaleString()}>
                {timeAgo(created, now)}
              </time>
            </li>
            <li className="flex items-center gap-1.5">
              <FileStack className="size-3.5" aria-hidden />
              {deployment.file_count} {deployment.file_count === 1 ? "file" : "files"}
            </li>
            <li className="flex items-center gap-1.5">
              <HardDrive className="size-3.5" aria-hidden />
              {formatBytes(deployment.total_size)}
            </li>
          </ul>
        </div>
      </div>
      {status === "success" && (
        <div className="flex shrink-0 gap-2 pl-[50px] sm:pl-0">
          {!deployment.is_live && canChangeLive && (
            <Button variant="outline" size="sm" onClick={() => onMakeLive(deployment)}>
              {rollback ? <Undo2 aria-hidden /> : <Redo2 aria-hidden />}
              {rollback ? "Roll back" : "Make live"}
            </Button>
          )}
          {deployment.deployment_url && (
            <Button variant="outline" size="sm" asChild>
              <a href={deployment.deployment_url} target="_blank" rel="noopener noreferrer">
                {SITE_TEXT.visitSite}
                <ArrowUpRight aria-hidden />
                <span className="sr-only">(version {deployment.version}, opens in a new tab)</span>
              </a>
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

function StatusIcon({ status }: { status: DeploymentResponse["status"] }) {
  const base = "flex size-9 shrink-0 items-center justify-center rounded-full";
  if (status === "success")
    return (
      <span className={cn(base, "bg-success/10 text-success")}>
        <CheckCircle2 className="size-5" aria-hidden />
      </span>
    );
  if (status === "failed")
    return (
      <span className={cn(base, "bg-destructive/10 text-destructive")}>
        <XCircle className="size-5" aria-hidden />
      </span>
    );
  return (
    <span className={cn(base, "bg-primary/10")}>
      <Spinner className="size-5" label={SITE_TEXT.deployInProgress} />
    </span>
  );
}

function StatusText({ status }: { status: DeploymentResponse["status"] }) {
  if (status === "success") return <span className="text-sm font-medium text-success">{SITE_TEXT.deploySuccess}</span>;
  if (status === "failed") return <span className="text-sm font-medium text-destructive">{SITE_TEXT.deployFailed}</span>;
  return <span className="text-sm font-medium text-primary">{SITE_TEXT.deployInProgress}</span>;
}
