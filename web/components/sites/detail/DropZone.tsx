// One file, by drag and drop or the file picker. The zone is a real button, so it is reachable
// with Tab and opens the picker with Enter or Space.
import { useId, useRef, useState, type DragEvent } from "react";
import { UploadCloud } from "lucide-react";
import {
  ALLOWED_EXTENSIONS,
  formatUploadLimit,
} from "../../../../common/uploads";
import { cn } from "../../../lib/cn";

const ACCEPT = ALLOWED_EXTENSIONS.map((ext) => `.${ext}`).join(",");

export function DropZone({
  maxBytes,
  disabled,
  onFile,
}: {
  maxBytes: number;
  disabled?: boolean;
  /** Only the first file is used, as the spec says. */
  onFile: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <>
      <button
        type="button"
        disabled={disabled}
        aria-describedby={hintId}
        onClick={() => input.current?.click()}
        onDragEnter={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = disabled ? "none" : "copy";
        }}
        onDragLeave={(event) => {
          // Leaving for a child element is not leaving the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null))
            setDragging(false);
        }}
        onDrop={onDrop}
        className={cn(
          "group flex w-full cursor-pointer flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60",
          dragging
            ? "border-primary bg-primary/5"
            : "border-input bg-muted/30 hover:border-primary/50 hover:bg-muted/60",
        )}
      >
        <span
          className={cn(
            "flex size-12 items-center justify-center rounded-full bg-background text-primary shadow-sm ring-1 ring-border transition-transform",
            dragging && "scale-110",
          )}
        >
          <UploadCloud className="size-6" aria-hidden />
        </span>
        <span className="text-sm">
          <span className="font-medium text-primary">
            Click to choose a file
          </span>{" "}
          <span className="text-muted-foreground">
            or drag and drop it here
          </span>
        </span>
        <span id={hintId} className="text-xs text-muted-foreground">
          HTML, CSS, JS, images, PDF or ZIP · up to{" "}
          {formatUploadLimit(maxBytes)}
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so that choosing the same file again after removing it still fires.
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
    </>
  );
}
