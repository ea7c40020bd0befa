import { AlertCircle, FileArchive, FileCode, FileImage, FileText, FolderTree, type LucideIcon } from "lucide-react";
import { formatBytes } from "../../../common/format";
import { FOLDER_TEXT } from "../../../common/uploads";
import { Alert, AlertDescription, AlertTitle } from "../ui/Alert";
import { DropZone, type DroppedFolder } from "../ui/DropZone";
import { Spinner } from "../ui/Spinner";
import type { FolderPhase } from "./folder/deployFolder";
import type { PickedFolder } from "./folder/readFolder";
import { SelectedFolder } from "./folder/SelectedFolder";
import { SelectedFile } from "./SelectedFile";
import { UPLOAD_ACCEPT } from "./uploadCheck";
import { FolderProgress, UploadProgress, type UploadPhase } from "./UploadProgress";
import type { ToastText } from "./wizard";

const KINDS: { Icon: LucideIcon; title: string; body: string; tone: string }[] = [
  {
    Icon: FileCode,
    title: "HTML page",
    body: "Served as the page at your address.",
    tone: "text-sky-600 bg-sky-50",
  },
  {
    Icon: FileText,
    title: "PDF",
    body: "Opens in a viewer page.",
    tone: "text-rose-600 bg-rose-50",
  },
  {
    Icon: FileImage,
    title: "Image",
    body: "Shown on its own page.",
    tone: "text-emerald-600 bg-emerald-50",
  },
  {
    Icon: FileArchive,
    title: "ZIP archive",
    body: "Unpacked; its index.html is the home page.",
    tone: "text-amber-600 bg-amber-50",
  },
  {
    Icon: FolderTree,
    title: FOLDER_TEXT.kindTitle,
    body: FOLDER_TEXT.kindBody,
    tone: "text-violet-600 bg-violet-50",
  },
];

/** Step 2: one file or one folder, picked or dropped; then its upload and publishing progress. */
export function UploadStep({
  file,
  folder,
  reading,
  maxBytes,
  phase,
  folderPhase,
  failure,
  onFiles,
  onFolder,
  onRemove,
  onCancel,
}: {
  file: File | null;
  folder: PickedFolder | null;
  /** A dropped folder is being read. */
  reading: boolean;
  /** The plan's largest file; null: it sets none. */
  maxBytes: number | null;
  phase: UploadPhase | null;
  folderPhase: FolderPhase | null;
  /** Why the last try did not publish a folder, when the site was created all the same. */
  failure: ToastText | null;
  onFiles: (files: File[]) => void;
  onFolder: (folder: DroppedFolder) => void;
  onRemove: () => void;
  onCancel: () => void;
}) {
  const failed = failure && (
    <Alert variant="destructive" role="alert">
      <AlertCircle aria-hidden />
      <AlertTitle>{failure.title}</AlertTitle>
      <AlertDescription>
        <p>{failure.description}</p>
        <p className="mt-1.5">{FOLDER_TEXT.publishAgainHint}</p>
      </AlertDescription>
    </Alert>
  );
  if (file) {
    return (
      <div className="flex flex-col gap-4">
        <SelectedFile file={file} onRemove={onRemove} disabled={phase !== null} explain />
        {!phase && failed}
        {phase && <UploadProgress phase={phase} fileSize={file.size} onCancel={onCancel} />}
      </div>
    );
  }
  if (folder) {
    return (
      <div className="flex flex-col gap-4">
        <SelectedFolder folder={folder} explanation={FOLDER_TEXT.explanation} onRemove={onRemove} disabled={folderPhase !== null} />
        {!folderPhase && failed}
        {folderPhase && <FolderProgress phase={folderPhase} onCancel={onCancel} />}
      </div>
    );
  }
  if (reading) {
    return (
      <div className="flex items-center justify-center gap-3 rounded-xl border-2 border-dashed bg-muted/30 px-6 py-16 text-sm text-muted-foreground">
        <Spinner className="size-5" label={FOLDER_TEXT.reading} />
        {FOLDER_TEXT.reading}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      {failed}
      <DropZone
        accept={UPLOAD_ACCEPT}
        hint={`HTML, PDF, image or ZIP${maxBytes === null ? "" : ` · up to ${formatBytes(maxBytes)}`}`}
        onFiles={onFiles}
        onFolder={onFolder}
      >
        {(dragging) => (
          <>
            <span className="mt-4 text-base font-medium">{dragging ? "Drop to upload" : FOLDER_TEXT.fileOrFolder}</span>
            <span className="mt-1 text-sm text-muted-foreground">
              <span className="pointer-coarse:hidden">
                Drag and drop it here, or <span className="font-medium text-primary group-hover:underline">browse</span>
              </span>
              <span className="hidden pointer-coarse:inline">Tap to choose a file</span>
            </span>
          </>
        )}
      </DropZone>
      <ul className="grid gap-3 sm:grid-cols-2" aria-label="What you can upload">
        {KINDS.map(({ Icon, title, body, tone }, index) => (
          <li
            key={title}
            className={`flex items-start gap-3 rounded-lg border bg-background p-3 ${index === KINDS.length - 1 ? "sm:col-span-2" : ""}`}
          >
            <span className={`flex size-8 shrink-0 items-center justify-center rounded-md ${tone}`}>
              <Icon className="size-4" aria-hidden />
            </span>
            <div className="min-w-0">
              <p className="text-sm font-medium">{title}</p>
              <p className="text-xs leading-relaxed text-muted-foreground">{body}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
