import { FileArchive, FileCode2, FileText, Folder, Upload, type LucideIcon } from "lucide-react";
import { LANDING_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";

type PreviewStatus = (typeof LANDING_TEXT.filePreview)[number]["status"];

const DETAILS: Record<string, { icon: LucideIcon; tint: string; size: string; where: string }> = {
  "annual-report.pdf": { icon: FileText, tint: "bg-rose-50 text-rose-600", size: "2.40 MB", where: "reports / 2025" },
  "landing-page.html": { icon: FileCode2, tint: "bg-sky-50 text-sky-600", size: "18.52 KB", where: "launch" },
  "project.zip": { icon: FileArchive, tint: "bg-amber-50 text-amber-600", size: "4.87 MB", where: "portfolio" },
};

const STATUS_STYLE: Record<PreviewStatus, string> = {
  Uploaded: "bg-sky-50 text-sky-700 ring-sky-600/20",
  Live: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  Active: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
};

/** A picture of the file manager built from markup: not interactive, nothing in it can be pressed. */
export function FilePreview({ className }: { className?: string }) {
  return (
    <figure className={cn("relative", className)}>
      <figcaption className="sr-only">A preview of the Berth file manager with three sample files</figcaption>
      <div
        aria-hidden
        className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-tr from-primary/20 via-violet-300/20 to-sky-300/20 blur-2xl"
      />
      <div className="overflow-hidden rounded-xl border bg-card shadow-2xl shadow-primary/10 ring-1 ring-foreground/5">
        <div className="flex items-center gap-2 border-b bg-muted/60 px-4 py-3">
          <span aria-hidden className="flex gap-1.5">
            <span className="size-2.5 rounded-full bg-rose-400" />
            <span className="size-2.5 rounded-full bg-amber-400" />
            <span className="size-2.5 rounded-full bg-emerald-400" />
          </span>
          <span className="mx-auto truncate rounded-md bg-background px-3 py-0.5 text-xs text-muted-foreground ring-1 ring-border">My files</span>
          <span aria-hidden className="w-10" />
        </div>
        <div className="p-4 sm:p-5">
          <div className="flex items-center justify-between gap-3">
            <div className="flex min-w-0 items-center gap-2 text-sm font-medium">
              <Folder aria-hidden className="size-4 shrink-0 text-primary" />
              <span className="truncate">All files</span>
            </div>
            <span className="inline-flex items-center gap-1.5 rounded-md bg-primary px-2.5 py-1.5 text-xs font-medium text-primary-foreground">
              <Upload aria-hidden className="size-3.5" />
              Upload
            </span>
          </div>
          <div className="mt-4 rounded-lg border border-dashed border-primary/30 bg-accent/50 px-4 py-4 text-center text-xs text-muted-foreground">
            Drop an HTML file, a PDF, a .zip or a folder here
          </div>
          <ul className="mt-4 divide-y rounded-lg border">
            {LANDING_TEXT.filePreview.map(({ name, status }) => {
              const detail = DETAILS[name];
              const Icon = detail?.icon ?? FileText;
              return (
                <li key={name} className="flex items-center gap-3 px-3 py-3 sm:px-4">
                  <span className={cn("flex size-9 shrink-0 items-center justify-center rounded-lg", detail?.tint)}>
                    <Icon aria-hidden className="size-4.5" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{name}</span>
                    <span className="block truncate text-xs text-muted-foreground">
                      {detail?.size} · {detail?.where}
                    </span>
                  </span>
                  <span
                    className={cn(
                      "inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset",
                      STATUS_STYLE[status],
                    )}
                  >
                    <span aria-hidden className="size-1.5 rounded-full bg-current" />
                    {status}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </figure>
  );
}
