import { FileArchive, FileCode, FileImage, FileText, type LucideIcon } from "lucide-react";
import { formatBytes } from "../../../common/format";
import { DropZone } from "../ui/DropZone";
import { SelectedFile } from "./SelectedFile";
import { UPLOAD_ACCEPT } from "./uploadCheck";
import { UploadProgress, type UploadPhase } from "./UploadProgress";

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
];

/** Step 2: one file, picked or dropped; then its upload and publishing progress. */
export function UploadStep({
  file,
  maxBytes,
  phase,
  onFiles,
  onRemove,
  onCancel,
}: {
  file: File | null;
  maxBytes: number;
  phase: UploadPhase | null;
  onFiles: (files: File[]) => void;
  onRemove: () => void;
  onCancel: () => void;
}) {
  if (file) {
    return (
      <div className="flex flex-col gap-4">
        <SelectedFile file={file} onRemove={onRemove} disabled={phase !== null} explain />
        {phase && <UploadProgress phase={phase} fileSize={file.size} onCancel={onCancel} />}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      <DropZone accept={UPLOAD_ACCEPT} hint={`HTML, PDF, image or ZIP · up to ${formatBytes(maxBytes)}`} onFiles={onFiles}>
        {(dragging) => (
          <>
            <span className="mt-4 text-base font-medium">{dragging ? "Drop to upload" : "Upload a file"}</span>
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
        {KINDS.map(({ Icon, title, body, tone }) => (
          <li key={title} className="flex items-start gap-3 rounded-lg border bg-background p-3">
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
