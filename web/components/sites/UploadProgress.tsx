import { formatBytes } from "../../../common/format";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { Spinner } from "../ui/Spinner";

export type UploadPhase = { kind: "uploading"; fraction: number } | { kind: "publishing" };

/** Screen readers hear the progress in quarters, not on every progress event. */
function milestone(percent: number): number {
  return Math.floor(percent / 25) * 25;
}

/**
 * The real upload progress (bytes sent by the browser), then an indeterminate bar while the
 * server unpacks and publishes, which it does not report in steps.
 */
export function UploadProgress({ phase, fileSize, onCancel }: { phase: UploadPhase; fileSize: number; onCancel?: () => void }) {
  const uploading = phase.kind === "uploading";
  const percent = uploading ? Math.min(100, Math.round(phase.fraction * 100)) : 100;
  const announcement = uploading ? `Uploading, ${milestone(percent)} percent` : "Upload complete. Publishing your site.";

  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2.5">
          {!uploading && <Spinner className="size-4" label="Publishing" />}
          <p className="text-sm font-medium">{uploading ? "Uploading…" : "Publishing…"}</p>
        </div>
        {uploading ? (
          <span className="text-sm font-semibold tabular-nums">{percent}%</span>
        ) : (
          <span className="text-xs text-muted-foreground">Almost there</span>
        )}
      </div>
      <div
        role="progressbar"
        aria-label={uploading ? "Upload progress" : "Publishing"}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={uploading ? percent : undefined}
        aria-valuetext={uploading ? `${percent}%` : "Publishing"}
        className="relative mt-3 h-2 overflow-hidden rounded-full bg-muted"
      >
        {uploading ? (
          <div className="h-full rounded-full bg-primary transition-[width] duration-200 ease-out" style={{ width: `${percent}%` }} />
        ) : (
          <div className="absolute inset-y-0 w-1/3 animate-[berth-indeterminate_1.2s_ease-in-out_infinite] rounded-full bg-primary" />
        )}
      </div>
      <div className="mt-2 flex items-center justify-between gap-3 text-xs text-muted-foreground">
        <span className="tabular-nums">
          {uploading ? `${formatBytes(Math.round(fileSize * phase.fraction))} of ${formatBytes(fileSize)}` : "Saving your files and making them live"}
        </span>
        {uploading && onCancel && (
          <Button type="button" variant="ghost" size="sm" className={cn("h-7 px-2 text-xs")} onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <style>{`@keyframes berth-indeterminate { 0% { left: -35%; } 100% { left: 100%; } }`}</style>
    </div>
  );
}
