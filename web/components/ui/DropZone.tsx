// Where a file (or, where the caller takes one, a folder) is dropped or picked, for the wizard and
// the Files tab. The whole zone is the label of a real file input, which stays in the tab order
// (visually hidden), so Enter or Space opens the picker and screen readers announce a file input
// described by the hint.
//
// Folders: a drop that holds a folder hands over its entries (they must be taken during the drop
// event; the DataTransfer is emptied once it returns), to be walked by the caller. "Choose a
// folder" opens the same input as a folder picker (webkitdirectory), set just before it opens and
// cleared after, so the page keeps one file input and the zone's own picker stays a file picker.
import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from "react";
import { CloudUpload, FolderOpen } from "lucide-react";
import { FOLDER_TEXT } from "../../../common/uploads";
import { cn } from "../../lib/cn";
import { Button } from "./Button";

/** A folder as the browser hands it over: a drop's entries, or the picker's files with their paths. */
export type DroppedFolder = { kind: "entries"; entries: readonly FileSystemEntry[] } | { kind: "picker"; files: readonly File[] };

/** Whether this browser has folder pickers at all; where it has none the button is not offered. */
const canPickFolders = typeof document !== "undefined" && "webkitdirectory" in document.createElement("input");

export function DropZone({
  accept,
  hint,
  disabled = false,
  onFiles,
  onFolder,
  children,
}: {
  /** The input's `accept`: what the picker offers. */
  accept: string;
  /** The line under the prompt: the kinds of file and the size limit. */
  hint: string;
  disabled?: boolean;
  /** Every file dropped or picked, never an empty list; the caller decides how many it takes. */
  onFiles: (files: File[]) => void;
  /** A folder dropped or picked; without it, a dropped folder's files are handed to onFiles as the browser lists them. */
  onFolder?: (folder: DroppedFolder) => void;
  /** The prompt, which may change while a file is dragged over the zone. */
  children: (dragging: boolean) => ReactNode;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Counted rather than a boolean: dragenter and dragleave fire for every child the pointer crosses.
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);

  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes("Files");
  const pickFiles = () => {
    if (input.current) input.current.webkitdirectory = false;
  };

  // A picker closed without a choice leaves the input a file picker again.
  useEffect(() => {
    const element = input.current;
    element?.addEventListener("cancel", pickFiles);
    return () => element?.removeEventListener("cancel", pickFiles);
  }, []);

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
    if (onFolder) {
      const entries = Array.from(event.dataTransfer.items, (item) => (item.kind === "file" ? item.webkitGetAsEntry() : null)).filter(
        (entry): entry is FileSystemEntry => entry !== null,
      );
      if (entries.some((entry) => entry.isDirectory)) {
        onFolder({ kind: "entries", entries });
        return;
      }
    }
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  }
  function chooseFolder() {
    const element = input.current;
    if (!element) return;
    element.webkitdirectory = true;
    element.click();
  }

  return (
    <div className="flex flex-col gap-2">
      <label
        htmlFor={id}
        data-dragging={dragging || undefined}
        onClick={(event) => {
          // A click on the zone opens a file picker. The input's own click (Choose a folder's, or the
          // one the label passes on) bubbles here too and keeps the mode it was opened in.
          if (event.target !== input.current) pickFiles();
        }}
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
          ref={input}
          id={id}
          type="file"
          accept={accept}
          disabled={disabled}
          aria-describedby={`${id}-hint`}
          className="sr-only"
          // Enter or Space on the focused input opens the file picker.
          onKeyDown={pickFiles}
          onChange={(event) => {
            const element = event.target;
            const folder = element.webkitdirectory;
            const files = Array.from(element.files ?? []);
            element.webkitdirectory = false;
            // Cleared so that picking the same file again after removing it fires a change.
            element.value = "";
            // An empty folder is still a choice, which the caller refuses in its own words.
            if (folder && onFolder) onFolder({ kind: "picker", files });
            else if (files.length > 0) onFiles(files);
          }}
        />
      </label>
      {onFolder && canPickFolders && (
        <div className="flex flex-wrap items-center justify-center gap-x-3 gap-y-2 text-center text-sm text-muted-foreground">
          <p>{FOLDER_TEXT.folderPrompt}</p>
          <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={chooseFolder}>
            <FolderOpen aria-hidden />
            {FOLDER_TEXT.chooseFolder}
          </Button>
        </div>
      )}
    </div>
  );
}
