// "Show deleted files": the files a kept version had that the site no longer has, under the
// folder being viewed, each ready to restore as the last version that had it.
import { useState } from "react";
import { FileX2, RotateCcw } from "lucide-react";
import { formatBytes } from "../../../../common/format";
import { HISTORY_TEXT } from "../../../../common/history";
import { useDeletedFiles } from "../../../lib/historyQueries";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { LoadError } from "../../ui/LoadError";
import { Placeholder } from "../../ui/Placeholder";
import { Loading, SkeletonRow } from "../../ui/Skeleton";
import { FileIcon } from "../FileIcon";
import { RestoreVersionDialog, type RestoreTarget } from "./RestoreVersionDialog";

export function DeletedFiles({ siteId, folder, readOnly }: { siteId: string; folder: string | null; readOnly: boolean }) {
  const deleted = useDeletedFiles(siteId, true);
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
  const prefix = folder ? `${folder}/` : "";
  const files = deleted.data?.filter((file) => file.path.startsWith(prefix));

  let body;
  if (deleted.isError) {
    body = (
      <LoadError
        inline
        title="Failed to load deleted files"
        message={deleted.error.message}
        onRetry={() => void deleted.refetch()}
        retrying={deleted.isFetching}
        className="p-5"
      />
    );
  } else if (!files) {
    body = (
      <Loading label="Loading deleted files" className="flex flex-col gap-4 p-5">
        <SkeletonRow media="size-8 rounded-lg" />
        <SkeletonRow media="size-8 rounded-lg" />
      </Loading>
    );
  } else if (files.length === 0) {
    body = (
      <Placeholder
        heading="h3"
        icon={<FileX2 className="size-6" aria-hidden />}
        title={HISTORY_TEXT.noDeleted}
        body={HISTORY_TEXT.noDeletedBody}
        className="rounded-none border-0 py-10"
      />
    );
  } else {
    body = (
      <ul className="divide-y" aria-label={HISTORY_TEXT.deletedTitle}>
        {files.map((file) => {
          const name = file.path.slice(prefix.length);
          return (
            <li key={file.path} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:px-5">
              <div className="flex min-w-0 flex-1 items-center gap-3">
                <FileIcon name={name} isFolder={false} />
                <div className="min-w-0">
                  <p className="truncate font-medium text-muted-foreground line-through decoration-muted-foreground/50" title={file.path}>
                    {name}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {formatBytes(file.size)} · deleted in version {file.deleted_in_version},{" "}
                    <time dateTime={file.deleted_at}>{new Date(file.deleted_at).toLocaleString()}</time>
                  </p>
                </div>
              </div>
              <Button
                variant="outline"
                size="sm"
                className="self-start sm:self-auto"
                disabled={readOnly}
                onClick={() => setRestoring({ path: file.path, folder: false, deploymentId: file.deployment_id, version: file.version })}
                aria-label={`Restore ${file.path}`}
              >
                <RotateCcw aria-hidden />
                Restore
              </Button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Card className="overflow-hidden">
      <div className="border-b px-4 py-3 sm:px-5">
        <h3 className="font-semibold">{HISTORY_TEXT.deletedTitle}</h3>
        <p className="text-sm text-muted-foreground">Files a kept version had that this folder no longer has, as they last were.</p>
      </div>
      {body}
      <RestoreVersionDialog siteId={siteId} target={restoring} onClose={() => setRestoring(null)} />
    </Card>
  );
}
