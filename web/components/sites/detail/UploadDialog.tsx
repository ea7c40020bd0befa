// 'Upload File': one file, or one folder, into the folder being viewed, then the publish of the
// new version. A file goes as a multipart upload with the real upload progress. A folder goes
// through the deploy API as one deployment (../folder/deployFolder.ts): its manifest is the site's
// current files (GET …/files/manifest) with the folder's added under the folder being viewed, so
// every other file stays, and only the files the server does not hold are sent. A failure keeps
// the dialog and the chosen file or folder, so retrying is one click, and the live site as it was.
import { useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { SiteManifestResponse } from "../../../../common/deploys";
import { SITE_TEXT, type UploadResponse } from "../../../../common/sites";
import { FOLDER_TEXT, formatUploadLimit, isZipUpload, MAX_UPLOAD_BYTES, UPLOAD_TEXT } from "../../../../common/uploads";
import { api, ApiError, errorDescription } from "../../../lib/api";
import { useStats } from "../../../lib/queries";
import { uploadFile } from "../../../lib/upload";
import { Button } from "../../ui/Button";
import { Checkbox } from "../../ui/Checkbox";
import { DropZone, type DroppedFolder } from "../../ui/DropZone";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../ui/Dialog";
import { Label } from "../../ui/Label";
import { Progress } from "../../ui/Progress";
import { Spinner } from "../../ui/Spinner";
import { refreshSite, siteUrl } from "./actions";
import { breadcrumbsFromPath } from "./paths";
import { deployFolder, type FolderPhase } from "../folder/deployFolder";
import { FolderProblem, type PickedFolder } from "../folder/readFolder";
import { useFolderReader } from "../folder/useFolderReader";
import { SelectedFolder } from "../folder/SelectedFolder";
import { SelectedFile } from "../SelectedFile";
import { checkUpload, UPLOAD_ACCEPT } from "../uploadCheck";
import { FolderProgress } from "../UploadProgress";

type Phase = { step: "idle" } | { step: "uploading"; fraction: number } | { step: "publishing" } | { step: "folder"; folder: FolderPhase };

export function UploadDialog({
  siteId,
  parent,
  open,
  onOpenChange,
}: {
  siteId: string;
  parent: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const stats = useStats();
  const maxBytes = stats.data ? stats.data.max_file_bytes : MAX_UPLOAD_BYTES;
  const [file, setFile] = useState<File | null>(null);
  const [folder, setFolder] = useState<PickedFolder | null>(null);
  const { reading, read } = useFolderReader((picked) => {
    setFile(null);
    setFolder(picked);
  });
  const [extract, setExtract] = useState(true);
  const [phase, setPhase] = useState<Phase>({ step: "idle" });
  const abort = useRef<AbortController | null>(null);
  const busy = phase.step !== "idle";
  const zip = file ? isZipUpload(file.name, file.type) : false;

  const reset = () => {
    setFile(null);
    setFolder(null);
    setExtract(true);
    setPhase({ step: "idle" });
  };

  // Only the first file is used: the dialog uploads one file (a zip carries many).
  const choose = ([next]: File[]) => {
    if (!next) return;
    const problem = checkUpload(next, maxBytes);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    setFolder(null);
    setFile(next);
  };

  // The folder lands as a folder of its own name in the one being viewed, as in a file manager.
  const chooseFolder = (source: DroppedFolder) => read(source, { into: parent, keepFolderName: true, maxFileBytes: maxBytes });

  const startFolder = async (picked: PickedFolder) => {
    const controller = new AbortController();
    abort.current = controller;
    const total = { files: picked.files.length, bytes: picked.size };
    setPhase({ step: "folder", folder: { kind: "hashing", done: { files: 0, bytes: 0 }, total } });
    try {
      const deploy = await deployFolder({
        siteId,
        files: picked.files,
        folders: picked.folders,
        keep: () => api<SiteManifestResponse>(siteUrl(siteId, "/files/manifest"), { signal: controller.signal }),
        message: FOLDER_TEXT.note(picked.name, picked.files.length),
        signal: controller.signal,
        onPhase: (next) => setPhase({ step: "folder", folder: next }),
      });
      toast.success(FOLDER_TEXT.succeeded, {
        description: FOLDER_TEXT.succeededDescription(picked.files.length, deploy.deployment?.version ?? 0),
      });
      reset();
      onOpenChange(false);
    } catch (error) {
      setPhase({ step: "idle" });
      if (controller.signal.aborted) {
        toast.info(FOLDER_TEXT.cancelled);
      } else if (error instanceof FolderProblem) {
        toast.error(error.title, { description: `${error.description} ${FOLDER_TEXT.liveUnchanged}` });
      } else {
        toast.error(SITE_TEXT.uploadFailed, { description: `${errorDescription(error)} ${FOLDER_TEXT.liveUnchanged}` });
      }
    } finally {
      abort.current = null;
      void refreshSite(queryClient, siteId);
    }
  };

  const start = async () => {
    if (folder) return startFolder(folder);
    if (!file) return;
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ step: "uploading", fraction: 0 });
    try {
      const result = await uploadFile<UploadResponse>(siteUrl(siteId, "/files"), file, {
        fields: {
          parent: parent ?? undefined,
          extract: zip && extract ? "true" : undefined,
        },
        signal: controller.signal,
        // Once every byte has left, the server is storing and publishing: say so.
        onProgress: (fraction) => setPhase(fraction >= 1 ? { step: "publishing" } : { step: "uploading", fraction }),
      });
      const count = result.files.length;
      toast.success(UPLOAD_TEXT.succeeded, {
        description: `${count === 1 ? file.name : `${count} files`} published as version ${result.deployment.version}.`,
      });
      reset();
      onOpenChange(false);
    } catch (error) {
      setPhase({ step: "idle" });
      if (error instanceof ApiError && error.code === "aborted") {
        toast.info("Upload cancelled");
      } else {
        toast.error(SITE_TEXT.uploadFailed, {
          description: errorDescription(error),
        });
      }
    } finally {
      abort.current = null;
      // The list, the site and the deployments, even after a failure: part of it may have landed.
      void refreshSite(queryClient, siteId);
    }
  };

  const location = breadcrumbsFromPath(parent)
    .map((crumb) => crumb.label)
    .join(" / ");
  const percent = phase.step === "uploading" ? Math.round(phase.fraction * 100) : 100;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return; // Closing mid-upload would leave it running unseen; Cancel aborts it.
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogContent onInteractOutside={(event) => busy && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{SITE_TEXT.uploadFileTitle}</DialogTitle>
          <DialogDescription>
            {folder ? "The folder" : "The file"} goes into <span className="font-medium text-foreground">{location}</span> and is published as a new
            version.
          </DialogDescription>
        </DialogHeader>

        <div className="mt-5 grid min-w-0 gap-4">
          {file ? (
            <SelectedFile file={file} onRemove={() => setFile(null)} disabled={busy} />
          ) : folder ? (
            <SelectedFolder folder={folder} explanation={FOLDER_TEXT.explanationInto} onRemove={() => setFolder(null)} disabled={busy} />
          ) : reading ? (
            <div className="flex items-center justify-center gap-3 rounded-xl border-2 border-dashed bg-muted/30 px-6 py-12 text-sm text-muted-foreground">
              <Spinner className="size-5" label={FOLDER_TEXT.reading} />
              {FOLDER_TEXT.reading}
            </div>
          ) : (
            <DropZone
              accept={UPLOAD_ACCEPT}
              hint={`HTML, CSS, JS, images, PDF or ZIP${maxBytes === null ? "" : ` · up to ${formatUploadLimit(maxBytes)}`}`}
              onFiles={choose}
              onFolder={(dropped) => void chooseFolder(dropped)}
            >
              {() => (
                <span className="mt-4 text-sm">
                  <span className="font-medium text-primary">Click to choose a file</span>{" "}
                  <span className="text-muted-foreground">or drag and drop it here</span>
                </span>
              )}
            </DropZone>
          )}

          {file && zip && (
            <div className="flex items-start gap-3 rounded-lg bg-muted/50 p-3">
              <Checkbox
                id="upload-extract"
                checked={extract}
                disabled={busy}
                onCheckedChange={(value) => setExtract(value === true)}
                className="mt-0.5"
              />
              <div className="grid gap-1">
                <Label htmlFor="upload-extract" className="cursor-pointer">
                  Extract archive here
                </Label>
                <p className="text-xs text-muted-foreground">
                  Unpacks the archive's files into {location}. Leave unchecked to store the .zip itself.
                </p>
              </div>
            </div>
          )}

          {phase.step === "folder" && <FolderProgress phase={phase.folder} />}

          {(phase.step === "uploading" || phase.step === "publishing") && (
            <div className="grid gap-2" aria-live="polite">
              <div className="flex items-center justify-between text-sm">
                <span className="flex items-center gap-2 font-medium">
                  {phase.step === "publishing" && <Spinner className="size-4" label="Publishing" />}
                  {phase.step === "publishing" ? "Publishing…" : "Uploading…"}
                </span>
                <span className="tabular-nums text-muted-foreground">{percent}%</span>
              </div>
              <Progress value={percent} aria-label="Upload progress" />
            </div>
          )}
        </div>

        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {phase.step === "uploading" || (phase.step === "folder" && phase.folder.kind !== "publishing") ? (
            <Button type="button" variant="outline" onClick={() => abort.current?.abort()}>
              Cancel upload
            </Button>
          ) : (
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={busy}>
                Cancel
              </Button>
            </DialogClose>
          )}
          <Button type="button" disabled={(!file && !folder) || busy || reading} onClick={() => void start()}>
            {busy && <Spinner className="size-4 text-current" label="Uploading" />}
            {SITE_TEXT.upload}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
