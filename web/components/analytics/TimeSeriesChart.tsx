// Page views (filled) and unique visitors (a line) per bucket, drawn by hand in SVG at the
// container's real width. One transparent column per bucket takes the pointer; the chart itself
// takes the keyboard (arrow keys, Home, End) and announces the bucket it lands on.
import { useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { AnalyticsResponse } from "../../../common/analytics";
import { ANALYTICS_TEXT } from "../../../common/analytics";
import { formatBytes } from "../../../common/format";
import { axisLabel, bucketTitle, chartSummary, isCurrentBucket, niceScale, tickIndices } from "./chart";
import { formatCompact, formatCount } from "./format";
import { useElementWidth } from "./useElementWidth";

const MARGIN = { top: 12, right: 12, bottom: 28, left: 40 };
/** The room one axis label needs, so labels never touch. */
const LABEL_SPACE = 56;
const TOOLTIP_WIDTH = 212;
const TOOLTIP_GAP = 12;

/** Beside the hovered bucket, on whichever side has room; over it, within the chart, when neither has. */
function tooltipLeft(at: number, width: number): number {
  const w = Math.min(TOOLTIP_WIDTH, width);
  if (at + TOOLTIP_GAP + w <= width) return at + TOOLTIP_GAP;
  if (at - TOOLTIP_GAP - w >= 0) return at - TOOLTIP_GAP - w;
  return Math.min(Math.max(0, at - w / 2), width - w);
}

export function TimeSeriesChart({ data, now }: { data: AnalyticsResponse; now: Date }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const [active, setActive] = useState<number | null>(null);
  const { series, unit, range } = data;
  const times = useMemo(() => series.map((p) => new Date(p.t)), [series]);
  const count = series.length;
  const height = width > 0 && width < 520 ? 190 : 250;

  const plotWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const column = count > 0 ? plotWidth / count : 0;
  const { top, step } = niceScale(Math.max(0, ...series.map((p) => Math.max(p.views, p.visitors))));
  const x = (i: number) => MARGIN.left + (i + 0.5) * column;
  const y = (value: number) => MARGIN.top + plotHeight * (1 - value / top);
  const base = MARGIN.top + plotHeight;
  const ticks = useMemo(() => tickIndices(times, unit, range, plotWidth / LABEL_SPACE), [times, unit, range, plotWidth]);
  const current = active !== null && active < count ? active : null;

  const line = (key: "views" | "visitors") => series.map((p, i) => `${i === 0 ? "M" : "L"}${x(i)},${y(p[key])}`).join("");
  const area = `${line("views")}L${x(count - 1)},${base}L${x(0)},${base}Z`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const from = current ?? count - 1;
    const next =
      event.key === "ArrowLeft"
        ? Math.max(0, from - 1)
        : event.key === "ArrowRight"
          ? Math.min(count - 1, from + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? count - 1
              : null;
    if (event.key === "Escape") setActive(null);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
  };

  const point = current !== null ? series[current] : undefined;
  const title = point ? bucketTitle(times[current!]!, unit) : "";
  const live = point && isCurrentBucket(times[current!]!, unit, now);
  const note = [unit === "day" ? "UTC day" : null, live ? "so far" : null].filter(Boolean).join(", ");
  const announcement = point
    ? `${title}${note ? ` (${note})` : ""}: ${formatCount(point.views)} page views, ${formatCount(point.visitors)} unique visitors, ${formatBytes(point.bandwidth)}.`
    : "";

  return (
    <div className="relative">
      <div
        ref={box}
        role="img"
        aria-label={chartSummary(series, unit, range)}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => setActive((a) => a ?? count - 1)}
        onBlur={() => setActive(null)}
        onPointerLeave={() => setActive(null)}
        className="relative rounded-md focus-visible:outline-2 focus-visible:outline-offset-4"
        style={{ height }}
      >
        {width > 0 && (
          <svg width={width} height={height} aria-hidden className="block overflow-visible text-[11px] select-none">
            {Array.from({ length: Math.round(top / step) + 1 }, (_, k) => k * step).map((value) => (
              <g key={value}>
                <line
                  x1={MARGIN.left}
                  x2={width - MARGIN.right}
                  y1={y(value)}
                  y2={y(value)}
                  className={value === 0 ? "stroke-border" : "stroke-border/70"}
                  strokeDasharray={value === 0 ? undefined : "3 3"}
                />
                <text x={MARGIN.left - 8} y={y(value)} dy="0.32em" textAnchor="end" className="fill-muted-foreground tabular-nums">
                  {formatCompact(value)}
                </text>
              </g>
            ))}
            {ticks.map((i) => (
              <text key={i} x={x(i)} y={height - 8} textAnchor="middle" className="fill-muted-foreground">
                {axisLabel(times[i]!, unit, range)}
              </text>
            ))}
            <path d={area} className="fill-primary/10" />
            {/* Visitors under views: where they are equal, the views line stays visible. */}
            <path d={line("visitors")} fill="none" strokeWidth={1.5} strokeLinejoin="round" className="stroke-sky-500" />
            <path d={line("views")} fill="none" strokeWidth={2} strokeLinejoin="round" className="stroke-primary" />
            {column >= 14 && series.map((p, i) => <circle key={i} cx={x(i)} cy={y(p.views)} r={2.5} className="fill-primary" />)}
            {point && (
              <g>
                <line x1={x(current!)} x2={x(current!)} y1={MARGIN.top} y2={base} className="stroke-foreground/25" />
                <circle cx={x(current!)} cy={y(point.visitors)} r={4} strokeWidth={2} className="fill-background stroke-sky-500" />
                <circle cx={x(current!)} cy={y(point.views)} r={4.5} strokeWidth={2} className="fill-background stroke-primary" />
              </g>
            )}
            {series.map((p, i) => (
              <rect
                key={p.t}
                data-bucket={p.t}
                x={MARGIN.left + i * column}
                y={MARGIN.top}
                width={column}
                height={plotHeight}
                fill="transparent"
                onPointerEnter={() => setActive(i)}
                onPointerDown={() => setActive(i)}
              />
            ))}
          </svg>
        )}
        {point && (
          <div
            aria-hidden
            className="pointer-events-none absolute top-0 z-10 rounded-lg border bg-popover px-3 py-2 text-xs shadow-md"
            style={{
              left: tooltipLeft(x(current!), width),
              width: Math.min(TOOLTIP_WIDTH, width),
            }}
            data-chart-tooltip
          >
            <p className="font-medium text-foreground">{title}</p>
            {note && <p className="text-muted-foreground">{note}</p>}
            <dl className="mt-1.5 grid grid-cols-[auto_auto] gap-x-4 gap-y-0.5">
              <dt className="flex items-center gap-1.5 text-muted-foreground">
                <span className="size-2 rounded-full bg-primary" />
                {ANALYTICS_TEXT.views}
              </dt>
              <dd className="text-right font-medium tabular-nums">{formatCount(point.views)}</dd>
              <dt className="flex items-center gap-1.5 text-muted-foreground">
                <span className="size-2 rounded-full bg-sky-500" />
                {ANALYTICS_TEXT.visitors}
              </dt>
              <dd className="text-right font-medium tabular-nums">{formatCount(point.visitors)}</dd>
              <dt className="pl-3.5 text-muted-foreground">{ANALYTICS_TEXT.bandwidth}</dt>
              <dd className="text-right font-medium tabular-nums">{formatBytes(point.bandwidth)}</dd>
            </dl>
          </div>
        )}
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

/** The chart's key: which colour is which. */
export function ChartLegend() {
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
      <li className="flex items-center gap-1.5">
        <span className="h-0.5 w-3.5 rounded-full bg-primary" aria-hidden />
        {ANALYTICS_TEXT.views}
      </li>
      <li className="flex items-center gap-1.5">
        <span className="h-0.5 w-3.5 rounded-full bg-sky-500" aria-hidden />
        {ANALYTICS_TEXT.visitors}
      </li>
    </ul>
  );
}
