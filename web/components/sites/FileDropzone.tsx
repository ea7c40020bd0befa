import { useId, useRef, useState, type DragEvent } from "react";
import { CloudUpload } from "lucide-react";
import {
  ALLOWED_EXTENSIONS,
  ALLOWED_MIME_TYPES,
} from "../../../common/uploads";
import { formatBytes } from "../../../common/format";
import { cn } from "../../lib/cn";

/** Extensions and MIME types, so the picker offers the same files the server accepts. */
export const ACCEPT = [
  ...ALLOWED_EXTENSIONS.map((ext) => `.${ext}`),
  ...new Set(Object.values(ALLOWED_MIME_TYPES).flat()),
].join(",");

/**
 * Drag a file here or pick one. The real file input stays in the tab order (visually hidden inside
 * the label), so Enter or Space opens the picker and screen readers announce it as a file input.
 */
export function FileDropzone({
  onFiles,
  maxBytes,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  maxBytes: number;
  disabled?: boolean;
}) {
  const id = useId();
  // Counted rather than a boolean: dragenter/dragleave fire for every child the pointer crosses.
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);

  function onDragEnter(event: DragEvent) {
    if (disabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  }
  function onDragLeave() {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  }
  function onDrop(event: DragEvent) {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  }

  return (
    <label
      htmlFor={id}
      onDragEnter={onDragEnter}
      onDragOver={(event) => {
        if (!disabled) event.preventDefault();
      }}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      className={cn(
        "group flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed bg-muted/30 px-6 py-12 text-center transition-colors",
        "hover:border-primary/50 hover:bg-accent/40 has-[:focus-visible]:border-primary has-[:focus-visible]:bg-accent/40 has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-primary/15",
        dragging && "border-primary bg-accent/60",
        disabled && "pointer-events-none opacity-60",
      )}
    >
      <span
        className={cn(
          "flex size-14 items-center justify-center rounded-full bg-background text-primary shadow-sm ring-1 ring-border transition-transform",
          dragging && "scale-110",
        )}
      >
        <CloudUpload className="size-6" aria-hidden />
      </span>
      <span className="mt-4 text-base font-medium">
        {dragging ? "Drop to upload" : "Upload a file"}
      </span>
      <span className="mt-1 text-sm text-muted-foreground">
        <span className="pointer-coarse:hidden">
          Drag and drop it here, or{" "}
          <span className="font-medium text-primary group-hover:underline">
            browse
          </span>
        </span>
        <span className="hidden pointer-coarse:inline">
          Tap to choose a file
        </span>
      </span>
      <span id={`${id}-hint`} className="mt-4 text-xs text-muted-foreground">
        HTML, PDF, image or ZIP · up to {formatBytes(maxBytes)}
      </span>
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        className="sr-only"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared so that picking the same file again after removing it fires a change.
          event.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </label>
  );
}
