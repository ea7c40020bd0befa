import type { ReactNode } from "react";
import { formatBytes } from "../../../common/format";
import { FOLDER_TEXT } from "../../../common/uploads";
import { Button } from "../ui/Button";
import { Spinner } from "../ui/Spinner";
import type { FolderPhase } from "./folder/deployFolder";

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
  if (phase.kind === "publishing") return <PublishingCard />;
  const percent = Math.min(100, Math.round(phase.fraction * 100));
  return (
    <ProgressCard
      title="Uploading…"
      label="Upload progress"
      percent={percent}
      detail={`${formatBytes(Math.round(fileSize * phase.fraction))} of ${formatBytes(fileSize)}`}
      announcement={`Uploading, ${milestone(percent)} percent`}
      onCancel={onCancel}
    />
  );
}

/**
 * A folder's progress in files and bytes: checking (hashing here), then uploading the files the
 * server does not hold, then publishing.
 */
export function FolderProgress({ phase, onCancel }: { phase: FolderPhase; onCancel?: () => void }) {
  if (phase.kind === "publishing") return <PublishingCard />;
  const { done, total } = phase;
  // By bytes, which is where the time goes; by files when they are all empty.
  const fraction = total.bytes > 0 ? done.bytes / total.bytes : total.files > 0 ? done.files / total.files : 1;
  const percent = Math.min(100, Math.floor(fraction * 100));
  const hashing = phase.kind === "hashing";
  const title = hashing ? FOLDER_TEXT.hashing : FOLDER_TEXT.uploading;
  return (
    <ProgressCard
      title={title}
      label={hashing ? "Checking progress" : "Upload progress"}
      percent={percent}
      detail={
        !hashing && total.files === 0 ? (
          FOLDER_TEXT.nothingToSend
        ) : (
          <>
            <span className="whitespace-nowrap">{FOLDER_TEXT.progressFiles(done.files, total.files)}</span>
            {" · "}
            <span className="whitespace-nowrap">{FOLDER_TEXT.progressBytes(formatBytes(done.bytes), formatBytes(total.bytes))}</span>
          </>
        )
      }
      note={!hashing && phase.unchanged > 0 && total.files > 0 ? FOLDER_TEXT.unchanged(phase.unchanged) : undefined}
      announcement={`${title.replace("…", "")}, ${milestone(percent)} percent`}
      onCancel={onCancel}
    />
  );
}

function PublishingCard() {
  return (
    <ProgressCard
      title={FOLDER_TEXT.publishing}
      label="Publishing"
      percent={null}
      detail={FOLDER_TEXT.publishingNote}
      announcement="Upload complete. Publishing your site."
    />
  );
}

/** A determinate bar with its figures, or (percent null) an indeterminate one with a spinner. */
function ProgressCard({
  title,
  label,
  percent,
  detail,
  note,
  announcement,
  onCancel,
}: {
  title: string;
  label: string;
  percent: number | null;
  detail: ReactNode;
  note?: ReactNode;
  announcement: string;
  onCancel?: (() => void) | undefined;
}) {
  const determinate = percent !== null;
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2.5">
          {!determinate && <Spinner className="size-4" label="Publishing" />}
          <p className="text-sm font-medium">{title}</p>
        </div>
        {determinate ? (
          <span className="text-sm font-semibold tabular-nums">{percent}%</span>
        ) : (
          <span className="text-xs text-muted-foreground">Almost there</span>
        )}
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={determinate ? percent : undefined}
        aria-valuetext={determinate ? `${percent}%` : title.replace("…", "")}
        className="relative mt-3 h-2 overflow-hidden rounded-full bg-muted"
      >
        {determinate ? (
          <div className="h-full rounded-full bg-primary transition-[width] duration-200 ease-out" style={{ width: `${percent}%` }} />
        ) : (
          <div className="absolute inset-y-0 w-1/3 animate-[berth-indeterminate_1.2s_ease-in-out_infinite] rounded-full bg-primary" />
        )}
      </div>
      <div className="mt-2 flex min-h-7 items-center justify-between gap-3 text-xs text-muted-foreground">
        <span className="tabular-nums">{detail}</span>
        {determinate && onCancel && (
          <Button type="button" variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
      {note && <p className="text-xs text-muted-foreground">{note}</p>}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <style>{`@keyframes berth-indeterminate { 0% { left: -35%; } 100% { left: 100%; } }`}</style>
    </div>
  );
}
