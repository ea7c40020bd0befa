import {
  File as FileIcon,
  FileArchive,
  FileCode,
  FileImage,
  FileText,
  X,
  type LucideIcon,
} from "lucide-react";
import {
  fileIconKind,
  formatBytes,
  type FileIconKind,
} from "../../../common/format";
import { extensionOf } from "../../../common/uploads";
import { publishExplanation } from "./wizard";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";

export const FILE_ICONS: Record<
  FileIconKind,
  { Icon: LucideIcon; tone: string }
> = {
  folder: { Icon: FileIcon, tone: "bg-muted text-muted-foreground" },
  pdf: { Icon: FileText, tone: "bg-rose-50 text-rose-600" },
  archive: { Icon: FileArchive, tone: "bg-amber-50 text-amber-600" },
  image: { Icon: FileImage, tone: "bg-emerald-50 text-emerald-600" },
  code: { Icon: FileCode, tone: "bg-sky-50 text-sky-600" },
  file: { Icon: FileIcon, tone: "bg-muted text-muted-foreground" },
};

/** The chosen file: type icon, name, size, what will happen to it, and a way to remove it. */
export function SelectedFile({
  file,
  onRemove,
  disabled = false,
}: {
  file: File;
  onRemove: () => void;
  disabled?: boolean;
}) {
  const { Icon, tone } = FILE_ICONS[fileIconKind(file.name, false)];
  const ext = extensionOf(file.name);
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-center gap-3">
        <span
          className={cn(
            "flex size-11 shrink-0 items-center justify-center rounded-lg",
            tone,
          )}
        >
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={file.name}>
            {file.name}
          </p>
          <p className="mt-0.5 text-xs text-muted-foreground">
            {formatBytes(file.size)}
            {ext && <span className="uppercase"> · {ext}</span>}
          </p>
        </div>
        {!disabled && (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-8 text-muted-foreground hover:text-foreground"
            onClick={onRemove}
            aria-label={`Remove ${file.name}`}
          >
            <X aria-hidden />
          </Button>
        )}
      </div>
      <p className="mt-3 border-t pt-3 text-sm leading-relaxed text-muted-foreground">
        {publishExplanation(file.name)}
      </p>
    </div>
  );
}
