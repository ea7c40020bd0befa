// The Analytics tab: a site's visits as Berth's edge counted them, for the range in ?range=
// (default 7 days). New roll-ups arrive as `analytics` events (useSiteEvents) and refetch the
// figures; a slow poll covers a dropped event stream.
import { useSearchParams } from "react-router";
import { Bot } from "lucide-react";
import {
  ANALYTICS_RANGE_LABELS,
  ANALYTICS_TEXT,
  DEFAULT_ANALYTICS_RANGE,
  type AnalyticsRange,
  type AnalyticsResponse,
} from "../../../../common/analytics";
import type { SiteResponse } from "../../../../common/sites";
import { useSiteAnalytics } from "../../../lib/analyticsQueries";
import { useNow } from "../../../lib/useNow";
import { cn } from "../../../lib/cn";
import { AnalyticsEmpty, AnalyticsSkeleton } from "../../analytics/AnalyticsStates";
import { Breakdowns } from "../../analytics/Breakdowns";
import { formatCount, parseRange } from "../../analytics/format";
import { RangePicker } from "../../analytics/RangePicker";
import { LoadError } from "../../ui/LoadError";
import { ChartLegend, TimeSeriesChart } from "../../analytics/TimeSeriesChart";
import { TotalsCards } from "../../analytics/TotalsCards";
import { listStatusOf } from "../siteList";

export function AnalyticsTab({ site }: { site: SiteResponse }) {
  const [search, setSearch] = useSearchParams();
  const range = parseRange(search.get("range"));
  const analytics = useSiteAnalytics(site.id, range);
  const data = analytics.data;

  const selectRange = (next: AnalyticsRange) =>
    setSearch(
      (current) => {
        const out = new URLSearchParams(current);
        if (next === DEFAULT_ANALYTICS_RANGE) out.delete("range");
        else out.set("range", next);
        return out;
      },
      { replace: true },
    );

  let body;
  if (!data) {
    body = analytics.isError ? (
      <LoadError
        title={ANALYTICS_TEXT.loadFailed}
        message={analytics.error.message}
        onRetry={() => void analytics.refetch()}
        retrying={analytics.isFetching}
      />
    ) : (
      <AnalyticsSkeleton />
    );
  } else if (!data.has_data) {
    body = <AnalyticsEmpty siteUrl={listStatusOf(site) === "active" ? site.url : null} />;
  } else {
    body = <Figures data={data} switching={analytics.isPlaceholderData} />;
  }

  return (
    <section aria-labelledby="analytics-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id="analytics-heading" className="text-lg font-semibold tracking-tight">
            {ANALYTICS_TEXT.title}
          </h2>
          {/* The empty state says the same in its own words. */}
          {data?.has_data !== false && (
            <p className="mt-0.5 text-sm text-muted-foreground">
              Counted at Berth's edge: no script in your pages, no cookies, and no IP addresses kept.
            </p>
          )}
        </div>
        {data?.has_data && <RangePicker value={range} onChange={selectRange} />}
      </div>
      {data && analytics.isError && (
        <p role="alert" className="text-sm text-destructive">
          {ANALYTICS_TEXT.loadFailed}: showing the last figures received.
        </p>
      )}
      {body}
    </section>
  );
}

function Figures({
  data,
  switching,
}: {
  data: AnalyticsResponse;
  /** The previous range's figures, shown while the chosen one loads. */
  switching: boolean;
}) {
  const now = useNow(60_000);
  return (
    <div aria-busy={switching} className={cn("flex flex-col gap-4 transition-opacity", switching && "opacity-60")}>
      <TotalsCards data={data} />
      <p className="-mt-1 flex items-center gap-1.5 text-xs text-muted-foreground">
        <Bot className="size-3.5 shrink-0" aria-hidden />
        {ANALYTICS_TEXT.bots}: {formatCount(data.totals.bot_requests)} in the last {ANALYTICS_RANGE_LABELS[data.range]}, not in page views or
        visitors.
      </p>
      <section aria-labelledby="analytics-chart-heading" className="rounded-xl border bg-card p-4 shadow-sm sm:p-5">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div>
            <h3 id="analytics-chart-heading" className="text-sm font-semibold tracking-tight">
              Traffic
            </h3>
            <p className="text-xs text-muted-foreground">
              {data.unit === "hour" ? "Per hour, in your time zone" : "Per day; days are counted in UTC"}
            </p>
          </div>
          <ChartLegend />
        </div>
        <TimeSeriesChart data={data} now={now} />
      </section>
      <Breakdowns data={data} />
    </div>
  );
}
