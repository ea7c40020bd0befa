// A file's or folder's history, in a panel beside the Files tab: each kept version in which it
// changed, to view, download, compare with the live version or restore.
import { useState } from "react";
import { Download, ExternalLink, GitCompareArrows, History, RotateCcw } from "lucide-react";
import { firstPlanWith } from "../../../../common/featureRequired";
import { formatBytes } from "../../../../common/format";
import { HISTORY_TEXT, type HistoryVersion } from "../../../../common/history";
import { useHistory, versionDownloadUrl } from "../../../lib/historyQueries";
import { usePlans } from "../../../lib/usePlans";
import { Button } from "../../ui/Button";
import { LoadError } from "../../ui/LoadError";
import { Placeholder } from "../../ui/Placeholder";
import { Loading, SkeletonRow } from "../../ui/Skeleton";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../ui/Sheet";
import { RestoreVersionDialog, type RestoreTarget } from "./RestoreVersionDialog";

export interface HistoryTarget {
  /** A file or folder of the site; "" with folder: the whole site. */
  path: string;
  folder: boolean;
}

export function HistoryPanel({
  siteId,
  target,
  readOnly,
  onClose,
  onCompare,
}: {
  siteId: string;
  target: HistoryTarget | null;
  readOnly: boolean;
  onClose: () => void;
  /** Compare this version with the live one (for a file, showing its changes). */
  onCompare: (version: HistoryVersion, path: string | null) => void;
}) {
  const history = useHistory(siteId, target);
  const plans = usePlans();
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
  const name = target === null ? "" : target.path === "" ? "The whole site" : target.path;

  let body;
  if (history.isError) {
    body = (
      <LoadError
        heading="h3"
        title="Failed to load history"
        message={history.error.message}
        onRetry={() => void history.refetch()}
        retrying={history.isFetching}
      />
    );
  } else if (!history.data) {
    body = (
      <Loading label="Loading history" className="flex flex-col gap-5 p-1">
        {Array.from({ length: 4 }, (_, i) => (
          <SkeletonRow key={i} media="size-9 rounded-full" lines={["w-28", "w-44"]} />
        ))}
      </Loading>
    );
  } else if (history.data.versions.length === 0) {
    body = (
      <Placeholder heading="h3" icon={<History className="size-6" aria-hidden />} title={HISTORY_TEXT.noHistory} body={HISTORY_TEXT.noHistoryBody} />
    );
  } else {
    const data = history.data;
    body = (
      <>
        <ol className="flex flex-col gap-3" aria-label={`Versions of ${name}`}>
          {data.versions.map((version) => (
            <VersionRow
              key={version.deployment_id}
              siteId={siteId}
              path={data.path}
              folder={data.folder}
              version={version}
              readOnly={readOnly}
              onCompare={() => onCompare(version, data.folder ? null : data.path)}
              onRestore={() => setRestoring({ path: data.path, folder: data.folder, deploymentId: version.deployment_id, version: version.version })}
            />
          ))}
        </ol>
        {data.versions_kept !== null && (
          <p className="mt-4 text-xs text-muted-foreground">
            {HISTORY_TEXT.keptOnPlan(data.versions_kept, plans && firstPlanWith(plans, "fileVersioning")?.name)}
          </p>
        )}
      </>
    );
  }

  return (
    <Sheet open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent side="right" closeLabel="Close history" className="w-[30rem] max-w-full sm:max-w-[90vw]">
        <div className="border-b px-5 py-4 pr-14">
          <SheetTitle className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <History className="size-5 text-primary" aria-hidden />
            {HISTORY_TEXT.title}
          </SheetTitle>
          <SheetDescription className="mt-1 break-all text-sm text-muted-foreground">
            {target?.folder && target.path !== "" ? `Folder ${name}` : name}
          </SheetDescription>
        </div>
        <div className="flex-1 overflow-y-auto p-5">{body}</div>
        <RestoreVersionDialog siteId={siteId} target={restoring} onClose={() => setRestoring(null)} />
      </SheetContent>
    </Sheet>
  );
}

function VersionRow({
  siteId,
  path,
  folder,
  version,
  readOnly,
  onCompare,
  onRestore,
}: {
  siteId: string;
  path: string;
  folder: boolean;
  version: HistoryVersion;
  readOnly: boolean;
  onCompare: () => void;
  onRestore: () => void;
}) {
  const published = new Date(version.published_at);
  return (
    <li className="rounded-lg border bg-card p-4" data-version={version.version}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">Version {version.version}</h3>
            {version.is_current ? (
              <span className="rounded-full bg-success px-2 py-0.5 text-xs font-semibold text-white">Current</span>
            ) : (
              <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">
                {version.change === "added" ? "Added" : "Changed"}
              </span>
            )}
          </div>
          <p className="mt-1 text-sm text-muted-foreground">
            <time dateTime={version.published_at}>{published.toLocaleString()}</time>
          </p>
        </div>
        <p className="shrink-0 text-right text-sm tabular-nums text-muted-foreground">
          {formatBytes(version.size)}
          {folder && <span className="block text-xs">{version.file_count === 1 ? "1 file" : `${version.file_count} files`}</span>}
        </p>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        {!folder && version.url && (
          <>
            <Button asChild variant="outline" size="sm">
              <a href={version.url} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden />
                View
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={versionDownloadUrl(siteId, version.deployment_id, path)} download={path.slice(path.lastIndexOf("/") + 1)}>
                <Download aria-hidden />
                Download
              </a>
            </Button>
          </>
        )}
        <Button variant="outline" size="sm" onClick={onCompare}>
          <GitCompareArrows aria-hidden />
          {HISTORY_TEXT.compare}
        </Button>
        {!version.is_current && (
          <Button size="sm" onClick={onRestore} disabled={readOnly}>
            <RotateCcw aria-hidden />
            {HISTORY_TEXT.restore}
          </Button>
        )}
      </div>
    </li>
  );
}
