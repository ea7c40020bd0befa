// Where a file is dropped or picked, for the wizard and the Files tab. The whole zone is the
// label of a real file input, which stays in the tab order (visually hidden), so Enter or Space
// opens the picker and screen readers announce a file input described by the hint.
import { useId, useRef, useState, type DragEvent, type ReactNode } from "react";
import { CloudUpload } from "lucide-react";
import { cn } from "../../lib/cn";

export function DropZone({
  accept,
  hint,
  disabled = false,
  onFiles,
  children,
}: {
  /** The input's `accept`: what the picker offers. */
  accept: string;
  /** The line under the prompt: the kinds of file and the size limit. */
  hint: string;
  disabled?: boolean;
  /** Every file dropped or picked, never an empty list; the caller decides how many it takes. */
  onFiles: (files: File[]) => void;
  /** The prompt, which may change while a file is dragged over the zone. */
  children: (dragging: boolean) => ReactNode;
}) {
  const id = useId();
  // Counted rather than a boolean: dragenter and dragleave fire for every child the pointer crosses.
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);

  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes("Files");

  function onDragEnter(event: DragEvent) {
    if (disabled || !carriesFiles(event)) return;
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
      data-dragging={dragging || undefined}
      onDragEnter={onDragEnter}
      onDragOver={(event) => {
        // Without this the browser opens a dropped file instead of handing it to onDrop.
        event.preventDefault();
        event.dataTransfer.dropEffect = disabled ? "none" : "copy";
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
      {children(dragging)}
      <span id={`${id}-hint`} className="mt-4 text-xs text-muted-foreground">
        {hint}
      </span>
      <input
        id={id}
        type="file"
        accept={accept}
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
