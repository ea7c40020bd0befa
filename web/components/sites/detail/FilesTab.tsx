// The Files tab: the folder named by ?path=a/b, its contents, and the dialogs that change them.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { ChevronDown, Clock, FileX2, FolderOpen, FolderPlus, GitCompareArrows, History, Upload } from "lucide-react";
import { HISTORY_TEXT } from "../../../../common/history";
import { SITE_TEXT, type SiteFileResponse, type SiteResponse } from "../../../../common/sites";
import { useSiteFiles } from "../../../lib/queries";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { LoadError } from "../../ui/LoadError";
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from "../../ui/Menu";
import { Placeholder } from "../../ui/Placeholder";
import { CompareDialog, type CompareStart } from "./CompareDialog";
import { DeletedFiles } from "./DeletedFiles";
import { DeleteFileDialog } from "./DeleteFileDialog";
import { HistoryPanel, type HistoryTarget } from "./HistoryPanel";
import { RestoreAtDialog } from "./RestoreAtDialog";
import { FileList } from "./FileList";
import { FolderBreadcrumb } from "./FolderBreadcrumb";
import { NewFolderDialog } from "./NewFolderDialog";
import { childPath } from "./paths";
import { UploadDialog } from "./UploadDialog";

export function FilesTab({ site, path, onOpenPath }: { site: SiteResponse; path: string | null; onOpenPath: (path: string | null) => void }) {
  const files = useSiteFiles(site.id, path);
  const [folderOpen, setFolderOpen] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [deleting, setDeleting] = useState<SiteFileResponse | null>(null);
  const [history, setHistory] = useState<HistoryTarget | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const [comparing, setComparing] = useState<CompareStart | null>(null);
  const [restoreAtOpen, setRestoreAtOpen] = useState(false);
  const readOnly = site.is_deleted;

  useEffect(() => {
    if (files.error) toast.error(SITE_TEXT.filesFailed, { description: files.error.message });
    // errorUpdatedAt: one toast per failed fetch, not one per render.
  }, [files.error, files.errorUpdatedAt]);

  const actions = (upload: string) => (
    <>
      <Button variant="outline" onClick={() => setFolderOpen(true)} disabled={readOnly}>
        <FolderPlus aria-hidden />
        {SITE_TEXT.newFolder}
      </Button>
      <Button onClick={() => setUploadOpen(true)} disabled={readOnly}>
        <Upload aria-hidden />
        {upload}
      </Button>
    </>
  );

  let body;
  if (files.isError && !files.data) {
    body = (
      <LoadError
        heading="h3"
        title={SITE_TEXT.filesFailed}
        message={files.error.message}
        onRetry={() => void files.refetch()}
        retrying={files.isFetching}
        className="rounded-none border-0"
      />
    );
  } else if (files.data && files.data.length === 0) {
    body = (
      <Placeholder
        heading="h3"
        icon={<FolderOpen className="size-6" aria-hidden />}
        title={SITE_TEXT.noFiles}
        body={SITE_TEXT.noFilesDescription}
        className="rounded-none border-0"
      >
        {actions(SITE_TEXT.uploadFiles)}
      </Placeholder>
    );
  } else {
    body = (
      <FileList
        siteId={site.id}
        files={files.data}
        readOnly={readOnly}
        onOpenFolder={(folder) => onOpenPath(childPath(path, folder.filename))}
        onDelete={setDeleting}
        onHistory={(file) => setHistory({ path: file.file_path, folder: file.is_folder })}
      />
    );
  }

  const historyMenu = (
    <Menu modal={false}>
      <MenuTrigger asChild>
        <Button variant="outline" className="data-[state=open]:bg-accent">
          <History aria-hidden />
          {HISTORY_TEXT.title}
          <ChevronDown aria-hidden className="opacity-60" />
        </Button>
      </MenuTrigger>
      <MenuContent align="end" className="min-w-60" sideOffset={4}>
        <MenuItem onSelect={() => setHistory({ path: path ?? "", folder: true })}>
          <History aria-hidden />
          {path ? "This folder's history" : "Site history"}
        </MenuItem>
        <MenuItem onSelect={() => setShowDeleted(!showDeleted)}>
          <FileX2 aria-hidden />
          {showDeleted ? HISTORY_TEXT.hideDeleted : HISTORY_TEXT.showDeleted}
        </MenuItem>
        <MenuItem onSelect={() => setComparing({})}>
          <GitCompareArrows aria-hidden />
          {HISTORY_TEXT.compareTitle}
        </MenuItem>
        <MenuSeparator />
        <MenuItem disabled={readOnly} onSelect={() => setRestoreAtOpen(true)}>
          <Clock aria-hidden />
          {HISTORY_TEXT.restoreAt}
        </MenuItem>
      </MenuContent>
    </Menu>
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <FolderBreadcrumb path={path} onOpen={onOpenPath} />
        <div className="flex shrink-0 flex-wrap gap-2 [&>button]:flex-1 sm:[&>button]:flex-none">
          {historyMenu}
          {actions(SITE_TEXT.upload)}
        </div>
      </div>
      <Card className="overflow-hidden">{body}</Card>
      {showDeleted && <DeletedFiles siteId={site.id} folder={path} readOnly={readOnly} />}

      <NewFolderDialog siteId={site.id} parent={path} open={folderOpen} onOpenChange={setFolderOpen} />
      <UploadDialog siteId={site.id} parent={path} open={uploadOpen} onOpenChange={setUploadOpen} />
      <DeleteFileDialog siteId={site.id} file={deleting} onClose={() => setDeleting(null)} />
      <HistoryPanel
        siteId={site.id}
        target={history}
        readOnly={readOnly}
        onClose={() => setHistory(null)}
        onCompare={(version, file) => {
          setHistory(null);
          setComparing({ from: version.deployment_id, path: file });
        }}
      />
      <CompareDialog siteId={site.id} start={comparing} onClose={() => setComparing(null)} />
      <RestoreAtDialog siteId={site.id} open={restoreAtOpen} onOpenChange={setRestoreAtOpen} />
    </div>
  );
}
