// "Compare versions": the files added, changed and removed from one kept version to another, with
// sizes, and for a changed text file its line diff (the server diffs files up to 1 MB a side).
import { useState } from "react";
import { ChevronDown, ChevronRight, FileDiff as FileDiffIcon, GitCompareArrows } from "lucide-react";
import { formatBytes } from "../../../../common/format";
import { HISTORY_TEXT, type CompareResponse, type FileDiff } from "../../../../common/history";
import type { DeploymentResponse } from "../../../../common/sites";
import { cn } from "../../../lib/cn";
import { useCompare } from "../../../lib/historyQueries";
import { useDeployments } from "../../../lib/queries";
import { Button } from "../../ui/Button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../ui/Dialog";
import { FormField } from "../../ui/FormField";
import { LoadError } from "../../ui/LoadError";
import { Placeholder } from "../../ui/Placeholder";
import { Loading, Skeleton, SkeletonRow } from "../../ui/Skeleton";
import { Select } from "../../ui/Select";

export interface CompareStart {
  /** Deployment ids; absent: the version before the live one, and the live one. */
  from?: string;
  to?: string;
  /** A file whose changes to show at once. */
  path?: string | null;
}

export function CompareDialog({ siteId, start, onClose }: { siteId: string; start: CompareStart | null; onClose: () => void }) {
  return (
    <Dialog open={start !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <GitCompareArrows className="size-5 text-primary" aria-hidden />
            {HISTORY_TEXT.compareTitle}
          </DialogTitle>
          <DialogDescription>
            Files added, changed and removed between two kept versions. Open a changed text file to see its lines.
          </DialogDescription>
        </DialogHeader>
        {start && <Comparison siteId={siteId} start={start} />}
      </DialogContent>
    </Dialog>
  );
}

function Comparison({ siteId, start }: { siteId: string; start: CompareStart }) {
  const deployments = useDeployments(siteId);
  const published = deployments.data?.filter((d) => d.status === "success");
  const live = published?.find((d) => d.is_live) ?? published?.[0];
  const [from, setFrom] = useState<string | undefined>(start.from);
  const [to, setTo] = useState<string | undefined>(start.to);
  const toId = to ?? live?.id;
  const toVersion = published?.find((d) => d.id === toId)?.version;
  const fromId = from ?? published?.find((d) => toVersion !== undefined && d.version < toVersion)?.id;
  const [open, setOpen] = useState<string | null>(start.path ?? null);
  const pair = fromId && toId ? { from: fromId, to: toId } : null;
  const compared = useCompare(siteId, pair, null);

  if (deployments.isError) {
    return (
      <LoadError
        heading="h3"
        title="Failed to load versions"
        message={deployments.error.message}
        onRetry={() => void deployments.refetch()}
        retrying={deployments.isFetching}
        className="mt-5"
      />
    );
  }
  if (!published) return <Skeleton className="mt-5 h-40 w-full" />;
  if (published.length < 2) {
    return (
      <Placeholder heading="h3" icon={<GitCompareArrows className="size-6" aria-hidden />} title={HISTORY_TEXT.needTwoVersions} className="mt-5" />
    );
  }

  return (
    <div className="mt-5 flex min-w-0 flex-col gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <VersionSelect id="compare-from" label="From" value={fromId} versions={published} onChange={setFrom} />
        <VersionSelect id="compare-to" label="To" value={toId} versions={published} onChange={setTo} />
      </div>
      {fromId === toId ? (
        <p className="rounded-lg bg-muted/70 p-3 text-sm">Choose two different versions.</p>
      ) : compared.isError ? (
        <LoadError
          heading="h3"
          title="Failed to compare"
          message={compared.error.message}
          onRetry={() => void compared.refetch()}
          retrying={compared.isFetching}
        />
      ) : !compared.data ? (
        <Loading label="Comparing" className="flex flex-col gap-4">
          <SkeletonRow media="size-8 rounded-lg" />
          <SkeletonRow media="size-8 rounded-lg" />
          <SkeletonRow media="size-8 rounded-lg" />
        </Loading>
      ) : (
        <Changes siteId={siteId} result={compared.data} open={open} onToggle={(path) => setOpen(open === path ? null : path)} />
      )}
    </div>
  );
}

function VersionSelect({
  id,
  label,
  value,
  versions,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  versions: DeploymentResponse[];
  onChange: (id: string) => void;
}) {
  return (
    <FormField id={id} label={label}>
      <Select id={id} value={value ?? ""} onChange={(event) => onChange(event.target.value)}>
        {versions.map((d) => (
          <option key={d.id} value={d.id}>
            Version {d.version}
            {d.is_live ? " (live)" : ""} · {new Date(d.created_at).toLocaleString()}
          </option>
        ))}
      </Select>
    </FormField>
  );
}

function Changes({
  siteId,
  result,
  open,
  onToggle,
}: {
  siteId: string;
  result: CompareResponse;
  open: string | null;
  onToggle: (path: string) => void;
}) {
  const total = result.added.length + result.changed.length + result.removed.length;
  if (total === 0)
    return <Placeholder heading="h3" icon={<FileDiffIcon className="size-6" aria-hidden />} title={HISTORY_TEXT.compareSame} className="py-10" />;
  const pair = { from: result.from.deployment_id, to: result.to.deployment_id };
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground" data-compare-summary>
        Version {result.from.version} → version {result.to.version}: {result.added.length} added · {result.changed.length} changed ·{" "}
        {result.removed.length} removed
      </p>
      <ul className="divide-y rounded-lg border" aria-label="Changed files">
        {result.added.map((file) => (
          <ChangeRow key={file.path} path={file.path} kind="added" sizes={formatBytes(file.size)} />
        ))}
        {result.changed.map((file) => (
          <ChangeRow
            key={file.path}
            path={file.path}
            kind="changed"
            sizes={`${formatBytes(file.from_size)} → ${formatBytes(file.to_size)}`}
            expanded={open === file.path}
            onToggle={file.text ? () => onToggle(file.path) : undefined}
          >
            {open === file.path && <DiffOf siteId={siteId} pair={pair} path={file.path} />}
          </ChangeRow>
        ))}
        {result.removed.map((file) => (
          <ChangeRow key={file.path} path={file.path} kind="removed" sizes={formatBytes(file.size)} />
        ))}
      </ul>
    </div>
  );
}

const KIND_STYLE = {
  added: "bg-success/15 text-success",
  changed: "bg-primary/10 text-primary",
  removed: "bg-destructive/10 text-destructive",
} as const;

function ChangeRow({
  path,
  kind,
  sizes,
  expanded = false,
  onToggle,
  children,
}: {
  path: string;
  kind: keyof typeof KIND_STYLE;
  sizes: string;
  expanded?: boolean;
  onToggle?: (() => void) | undefined;
  children?: React.ReactNode;
}) {
  const Chevron = expanded ? ChevronDown : ChevronRight;
  return (
    <li className="min-w-0">
      <div className="flex flex-col gap-1 px-3 py-2.5 sm:flex-row sm:items-center sm:gap-3 sm:px-4">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <span className={cn("w-16 shrink-0 rounded px-1.5 py-0.5 text-center text-xs font-medium capitalize", KIND_STYLE[kind])}>{kind}</span>
          <span className="min-w-0 flex-1 break-all font-mono text-sm">{path}</span>
        </div>
        {/* Below the name on a phone, lined up with it; beside it from the small breakpoint. */}
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 pl-19 sm:flex-nowrap sm:justify-end sm:pl-0">
          <span className="shrink-0 text-xs tabular-nums text-muted-foreground">{sizes}</span>
          {onToggle && (
            <Button variant="ghost" size="sm" onClick={onToggle} aria-expanded={expanded} className="h-7 px-2">
              <Chevron aria-hidden />
              {expanded ? "Hide changes" : "Show changes"}
            </Button>
          )}
        </div>
      </div>
      {children}
    </li>
  );
}

function DiffOf({ siteId, pair, path }: { siteId: string; pair: { from: string; to: string }; path: string }) {
  const compared = useCompare(siteId, pair, path);
  if (compared.isError) {
    return (
      <LoadError
        inline
        title="Failed to load the changes"
        message={compared.error.message}
        onRetry={() => void compared.refetch()}
        retrying={compared.isFetching}
        className="border-t p-3"
      />
    );
  }
  if (!compared.data?.diff) return <Skeleton className="mx-3 mb-3 h-24" />;
  return <DiffView diff={compared.data.diff} />;
}

const LINE_STYLE = { same: "", add: "bg-success/12", remove: "bg-destructive/10" } as const;
const LINE_SIGN = { same: " ", add: "+", remove: "−" } as const;

function DiffView({ diff }: { diff: FileDiff }) {
  if (diff.kind !== "text") {
    const reason =
      diff.kind === "binary" ? "This file is not text, so only its size is compared." : "This file is over 1 MB, so only its size is compared.";
    return <p className="border-t px-4 py-3 text-sm text-muted-foreground">{reason}</p>;
  }
  return (
    <div className="overflow-x-auto border-t bg-muted/30" data-diff={diff.path}>
      <table className="w-full border-collapse font-mono text-xs leading-5">
        <tbody>
          {diff.hunks.map((hunk, h) => (
            <HunkRows key={h} lines={hunk.lines} first={h === 0} />
          ))}
        </tbody>
      </table>
      {diff.truncated && (
        <p className="border-t px-4 py-2 text-xs text-muted-foreground">The changes go on past this point; download both versions to see them all.</p>
      )}
    </div>
  );
}

function HunkRows({ lines, first }: { lines: FileDiff["hunks"][number]["lines"]; first: boolean }) {
  return (
    <>
      {!first && (
        <tr aria-hidden>
          <td colSpan={4} className="border-y bg-muted px-3 text-muted-foreground">
            ⋯
          </td>
        </tr>
      )}
      {lines.map((line, i) => (
        <tr key={i} className={LINE_STYLE[line.op]} data-op={line.op}>
          <td className="w-10 select-none px-2 text-right text-muted-foreground">{line.from_line ?? ""}</td>
          <td className="w-10 select-none px-2 text-right text-muted-foreground">{line.to_line ?? ""}</td>
          <td className="w-4 select-none text-center text-muted-foreground">
            <span className="sr-only">{line.op === "same" ? "unchanged" : line.op === "add" ? "added" : "removed"}</span>
            <span aria-hidden>{LINE_SIGN[line.op]}</span>
          </td>
          <td className="whitespace-pre pr-4">{line.text}</td>
        </tr>
      ))}
    </>
  );
}
