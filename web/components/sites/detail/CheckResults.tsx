// A version's publish check: its state in one line, and on demand the problems found, each with
// its file, line and what to do, plus the one-click fixes. Shown on each deployment card and on
// the wizard's last step. Findings are read only when opened (they can be 200 rows); the summary
// rides with the deployment and is refreshed by the check's own server event.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { AlertTriangle, CheckCircle2, ChevronDown, FileWarning, Wrench } from "lucide-react";
import { CHECK_TEXT, type CheckFinding, type CheckSummary, type DeploymentCheckResponse } from "../../../../common/checks";
import type { DeploymentResponse } from "../../../../common/sites";
import { api, errorDescription } from "../../../lib/api";
import { cn } from "../../../lib/cn";
import { queryKeys } from "../../../lib/queries";
import { Button } from "../../ui/Button";
import { Spinner } from "../../ui/Spinner";
import { refreshSite, siteUrl } from "./actions";

const checkKey = (siteId: string, deploymentId: string) => [...queryKeys.deployments(siteId), deploymentId, "check"] as const;

export function CheckResults({
  siteId,
  deploymentId,
  check,
  canFix,
  defaultOpen = false,
  onFixed,
}: {
  siteId: string;
  deploymentId: string;
  check: CheckSummary | null;
  /** The site can change (not deleted); fixes also need this version to be the live one. */
  canFix: boolean;
  defaultOpen?: boolean;
  onFixed?: (deployment: DeploymentResponse) => void;
}) {
  const [open, setOpen] = useState(defaultOpen);
  if (!check) return null;
  if (check.status === "pending")
    return (
      <p className="flex items-center gap-2 text-xs text-muted-foreground">
        <Spinner className="size-3.5" label="Checking" />
        {CHECK_TEXT.checking}
      </p>
    );
  if (check.status === "failed") return <p className="text-xs text-muted-foreground">{CHECK_TEXT.checkFailed}</p>;
  if (check.problem_count === 0)
    return (
      <p className="flex items-center gap-1.5 text-xs font-medium text-success">
        <CheckCircle2 className="size-3.5" aria-hidden />
        {CHECK_TEXT.noProblems}
      </p>
    );
  const panelId = `check-${deploymentId}`;
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="inline-flex w-fit items-center gap-1.5 rounded-sm text-xs font-medium text-amber-800 hover:underline"
      >
        <AlertTriangle className="size-3.5 text-amber-600" aria-hidden />
        {CHECK_TEXT.problems(check.problem_count)}
        <ChevronDown className={cn("size-3.5 transition-transform", open && "rotate-180")} aria-hidden />
      </button>
      {open && (
        <div id={panelId}>
          <Findings siteId={siteId} deploymentId={deploymentId} canFix={canFix} onFixed={onFixed} />
        </div>
      )}
    </div>
  );
}

function Findings({
  siteId,
  deploymentId,
  canFix,
  onFixed,
}: {
  siteId: string;
  deploymentId: string;
  canFix: boolean;
  onFixed?: (deployment: DeploymentResponse) => void;
}) {
  const queryClient = useQueryClient();
  const result = useQuery({
    queryKey: checkKey(siteId, deploymentId),
    queryFn: () => api<DeploymentCheckResponse>(siteUrl(siteId, `/deployments/${encodeURIComponent(deploymentId)}/check`)),
  });
  const fix = useMutation({
    mutationFn: (action: { kind: "case" } | { kind: "index"; path: string }) =>
      api<DeploymentResponse>(
        siteUrl(siteId, `/deployments/${encodeURIComponent(deploymentId)}/check/${action.kind === "case" ? "fix-case" : "use-index"}`),
        action.kind === "case" ? { method: "POST" } : { method: "POST", json: { path: action.path } },
      ),
    onSuccess: (deployment) => {
      if (deployment.status === "success") toast.success("Fixed", { description: `Version ${deployment.version} is live: ${deployment.note ?? ""}` });
      else toast.error("The fix could not be published", { description: deployment.error ?? undefined });
      onFixed?.(deployment);
    },
    onError: (error) => toast.error("Failed to apply the fix", { description: errorDescription(error) }),
    onSettled: () => refreshSite(queryClient, siteId),
  });

  if (result.isPending) return <Spinner className="size-4" label="Loading the problems found" />;
  if (result.isError) return <p className="text-xs text-destructive">{errorDescription(result.error)}</p>;
  const check = result.data;
  const { fixes } = check;
  const offersFix = fixes.case_renames > 0 || fixes.index_candidates.length > 0;

  return (
    <div className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-3">
      {offersFix &&
        (canFix && fixes.applicable ? (
          <div className="flex flex-wrap gap-2">
            {fixes.case_renames > 0 && (
              <Button size="sm" variant="outline" disabled={fix.isPending} onClick={() => fix.mutate({ kind: "case" })}>
                <Wrench aria-hidden />
                {CHECK_TEXT.fixCase}
              </Button>
            )}
            {fixes.index_candidates.slice(0, 3).map((path) => (
              <Button
                key={path}
                size="sm"
                variant="outline"
                className="max-w-full"
                disabled={fix.isPending}
                onClick={() => fix.mutate({ kind: "index", path })}
              >
                <Wrench aria-hidden />
                <span className="min-w-0 truncate">{CHECK_TEXT.indexButton(path)}</span>
              </Button>
            ))}
          </div>
        ) : (
          canFix && <p className="text-xs text-muted-foreground">{CHECK_TEXT.notLive}</p>
        ))}
      <ul className="flex flex-col divide-y">
        {check.findings.map((finding, index) => (
          <FindingRow key={index} finding={finding} />
        ))}
      </ul>
      {(check.truncated || check.files_partly_checked > 0) && (
        <p className="text-xs text-muted-foreground">
          {check.truncated && `The first ${check.findings.length} of ${check.problem_count} problems are listed. `}
          {check.files_partly_checked > 0 &&
            `${check.files_partly_checked} large ${check.files_partly_checked === 1 ? "file was" : "files were"} checked only in part.`}
        </p>
      )}
    </div>
  );
}

function FindingRow({ finding }: { finding: CheckFinding }) {
  return (
    <li className="flex gap-2.5 py-2 first:pt-0 last:pb-0">
      <FileWarning className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
      <div className="min-w-0 flex-1 text-xs">
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span className="font-semibold text-foreground">{CHECK_TEXT.labels[finding.kind]}</span>
          {finding.file && (
            <span className="font-mono break-all text-muted-foreground">
              {finding.file}
              {finding.line !== null && `:${finding.line}`}
            </span>
          )}
        </p>
        {finding.target && <p className="mt-0.5 font-mono break-all text-foreground/90">{finding.target}</p>}
        <p className="mt-0.5 text-muted-foreground">{finding.hint}</p>
      </div>
    </li>
  );
}
