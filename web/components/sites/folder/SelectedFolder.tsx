import { EyeOff, X } from "lucide-react";
import { formatBytes } from "../../../../common/format";
import { FOLDER_TEXT } from "../../../../common/uploads";
import { Button } from "../../ui/Button";
import { FileIcon } from "../FileIcon";
import type { PickedFolder } from "./readFolder";

/**
 * The folder chosen for upload, in the wizard and the Files tab: its name, how many files and
 * bytes it publishes, what the dot rule left out, and what publishing does with it; removable
 * while it is not being sent.
 */
export function SelectedFolder({
  folder,
  explanation,
  onRemove,
  disabled = false,
}: {
  folder: PickedFolder;
  explanation: string;
  onRemove: () => void;
  disabled?: boolean;
}) {
  const name = folder.name ?? FOLDER_TEXT.severalItems;
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-center gap-3">
        <FileIcon name={name} isFolder className="size-11 rounded-lg [&_svg]:size-5" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={name}>
            {name}
          </p>
          <p className="mt-0.5 text-xs text-muted-foreground tabular-nums">{FOLDER_TEXT.summary(folder.files.length, formatBytes(folder.size))}</p>
        </div>
        {!disabled && (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-8 text-muted-foreground hover:text-foreground"
            onClick={onRemove}
            aria-label={`Remove ${name}`}
          >
            <X aria-hidden />
          </Button>
        )}
      </div>
      {folder.leftOut.length > 0 && (
        <p className="mt-3 flex items-start gap-2 text-xs text-muted-foreground" title={folder.leftOut.join("\n")}>
          <EyeOff className="mt-px size-3.5 shrink-0" aria-hidden />
          {FOLDER_TEXT.leftOut(folder.leftOut.length)}
        </p>
      )}
      <p className="mt-3 border-t pt-3 text-sm leading-relaxed text-muted-foreground">{explanation}</p>
    </div>
  );
}
