// One ranked list of the Analytics tab (pages, referrers, status codes, broken links, countries):
// a card with a heading, the column names, and rows whose shaded bar is their share of the top row.
import type { ReactNode } from "react";
import { useId } from "react";
import { cn } from "../../lib/cn";
import { formatCount } from "./format";

export interface RankedEntry {
  key: string;
  count: number;
}

export function RankedList({
  title,
  icon,
  entries,
  keyHeading,
  countHeading,
  empty,
  renderKey = (entry) => entry.key,
  barClassName = "bg-primary/10",
  className,
}: {
  title: string;
  icon: ReactNode;
  entries: readonly RankedEntry[];
  keyHeading: string;
  countHeading: string;
  /** Shown instead of the rows when there are none. */
  empty: ReactNode;
  renderKey?: (entry: RankedEntry) => ReactNode;
  barClassName?: string;
  className?: string;
}) {
  const headingId = useId();
  const max = Math.max(1, ...entries.map((entry) => entry.count));
  return (
    <section aria-labelledby={headingId} className={cn("flex min-w-0 flex-col rounded-xl border bg-card shadow-sm", className)}>
      <h3 id={headingId} className="flex items-center gap-2 px-4 pt-4 text-sm font-semibold tracking-tight sm:px-5">
        <span className="text-muted-foreground [&_svg]:size-4" aria-hidden>
          {icon}
        </span>
        {title}
      </h3>
      {entries.length === 0 ? (
        <div className="flex flex-1 items-center px-4 pt-3 pb-5 text-sm text-muted-foreground sm:px-5">{empty}</div>
      ) : (
        <div className="px-2 pt-2 pb-3 sm:px-3">
          <div className="flex justify-between px-2 pb-1 text-xs font-medium text-muted-foreground" aria-hidden>
            <span>{keyHeading}</span>
            <span>{countHeading}</span>
          </div>
          <ol aria-labelledby={headingId} className="flex flex-col gap-0.5">
            {entries.map((entry) => (
              <li key={entry.key} className="relative flex min-h-8 items-center justify-between gap-3 rounded-md px-2 text-sm">
                <span
                  aria-hidden
                  className={cn("absolute inset-y-0 left-0 rounded-md", barClassName)}
                  style={{ width: `${(entry.count / max) * 100}%` }}
                />
                <span className="relative min-w-0 truncate" title={entry.key}>
                  {renderKey(entry)}
                </span>
                <span className="relative shrink-0 font-medium tabular-nums">
                  {formatCount(entry.count)}
                  <span className="sr-only"> {countHeading.toLowerCase()}</span>
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
