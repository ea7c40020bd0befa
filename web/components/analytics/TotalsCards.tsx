// The three totals of the period, each with how it moved against the period before. A total with
// nothing before it says "New" rather than an infinite percentage; bandwidth moving up or down is
// neither good nor bad, so its change is never coloured.
import { useId } from "react";
import { ArrowDown, ArrowUp, Eye, Gauge, Users, type LucideIcon } from "lucide-react";
import { ANALYTICS_TEXT, type AnalyticsRange, type AnalyticsResponse } from "../../../common/analytics";
import { formatBytes } from "../../../common/format";
import { cn } from "../../lib/cn";
import { changeOf, changeSentence, formatCount, previousPeriod, type Change } from "./format";

type Metric = "views" | "visitors" | "bandwidth";

const METRICS: Array<{
  key: Metric;
  label: string;
  Icon: LucideIcon;
  format: (value: number) => string;
  /** Whether up is good news (green) and down bad (red). */
  toned: boolean;
}> = [
  {
    key: "views",
    label: ANALYTICS_TEXT.views,
    Icon: Eye,
    format: formatCount,
    toned: true,
  },
  {
    key: "visitors",
    label: ANALYTICS_TEXT.visitors,
    Icon: Users,
    format: formatCount,
    toned: true,
  },
  {
    key: "bandwidth",
    label: ANALYTICS_TEXT.bandwidth,
    Icon: Gauge,
    format: formatBytes,
    toned: false,
  },
];

function ChangeBadge({ change, toned }: { change: Change; toned: boolean }) {
  const tone =
    !toned || change.kind === "flat" || change.kind === "none"
      ? "bg-muted text-muted-foreground"
      : change.kind === "down"
        ? "bg-destructive/10 text-destructive"
        : "bg-success/10 text-emerald-700";
  return (
    <span className={cn("inline-flex h-5 shrink-0 items-center gap-0.5 rounded-full px-1.5 text-xs font-medium tabular-nums", tone)}>
      {change.kind === "up" && <ArrowUp className="size-3" aria-hidden />}
      {change.kind === "down" && <ArrowDown className="size-3" aria-hidden />}
      {change.kind === "up" || change.kind === "down"
        ? `${formatCount(change.percent)}%`
        : change.kind === "flat"
          ? "0%"
          : change.kind === "new"
            ? "New"
            : "—"}
    </span>
  );
}

function TotalCard({ metric, data }: { metric: (typeof METRICS)[number]; data: AnalyticsResponse }) {
  const labelId = useId();
  const value = data.totals[metric.key];
  const change = changeOf(value, data.change[metric.key]);
  const range: AnalyticsRange = data.range;
  return (
    <div role="group" aria-labelledby={labelId} className="flex min-w-0 flex-col rounded-xl border bg-card p-4 shadow-sm sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <p id={labelId} className="text-sm font-medium text-muted-foreground">
          {metric.label}
        </p>
        <span className="hidden size-8 items-center justify-center rounded-lg bg-accent text-primary sm:flex">
          <metric.Icon className="size-4" aria-hidden />
        </span>
      </div>
      <p className="mt-1 truncate text-2xl font-semibold tracking-tight tabular-nums sm:mt-2 sm:text-3xl" data-total={metric.key}>
        {metric.format(value)}
      </p>
      <p className="mt-2 flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
        <span aria-hidden className="contents">
          <ChangeBadge change={change} toned={metric.toned} />
          <span className="truncate">
            {change.kind === "new" || change.kind === "none" ? `none in ${previousPeriod(range)}` : `vs ${previousPeriod(range)}`}
          </span>
        </span>
        <span className="sr-only">{changeSentence(change, range)}</span>
      </p>
    </div>
  );
}

export function TotalsCards({ data }: { data: AnalyticsResponse }) {
  return (
    <section aria-label="Totals" className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:gap-4">
      {METRICS.map((metric) => (
        <TotalCard key={metric.key} metric={metric} data={data} />
      ))}
    </section>
  );
}
