import { X } from "lucide-react";
import { formatBytes } from "../../../common/format";
import { extensionOf } from "../../../common/uploads";
import { Button } from "../ui/Button";
import { FileIcon } from "./FileIcon";
import { publishExplanation } from "./wizard";

/**
 * The file chosen for upload, in the wizard and the Files tab: type icon, name, size, and a way
 * to remove it while it is not being sent. `explain` adds its type and what publishing will do
 * with it (the wizard, where the file becomes the whole site).
 */
export function SelectedFile({
  file,
  onRemove,
  disabled = false,
  explain = false,
}: {
  file: File;
  onRemove: () => void;
  disabled?: boolean;
  explain?: boolean;
}) {
  const ext = explain ? extensionOf(file.name) : "";
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-center gap-3">
        <FileIcon name={file.name} isFolder={false} className="size-11 rounded-lg [&_svg]:size-5" />
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
      {explain && <p className="mt-3 border-t pt-3 text-sm leading-relaxed text-muted-foreground">{publishExplanation(file.name)}</p>}
    </div>
  );
}
