// The ranked lists under the chart: where views went and came from, how the site answered, which
// links are broken, and (when the operator set up GeoIP) from which countries.
import { Earth, FileText, FileWarning, Hash, Link2 } from "lucide-react";
import { ANALYTICS_RANGE_LABELS, ANALYTICS_TEXT, type AnalyticsResponse } from "../../../common/analytics";
import { cn } from "../../lib/cn";
import { countryName, statusName, statusTone, type StatusTone } from "./format";
import { RankedList, type RankedEntry } from "./RankedList";

const TONE_DOT: Record<StatusTone, string> = {
  success: "bg-success",
  redirect: "bg-sky-500",
  client: "bg-warning",
  server: "bg-destructive",
};

function StatusKey({ entry }: { entry: RankedEntry }) {
  const name = statusName(entry.key);
  return (
    <span className="inline-flex min-w-0 items-baseline gap-2">
      <span className={cn("size-2 shrink-0 self-center rounded-full", TONE_DOT[statusTone(entry.key)])} aria-hidden />
      <span className="font-mono text-[13px]">{entry.key}</span>
      {name && <span className="truncate text-muted-foreground">{name}</span>}
    </span>
  );
}

function CountryKey({ entry }: { entry: RankedEntry }) {
  const name = countryName(entry.key);
  return (
    <span className="inline-flex min-w-0 items-center gap-2">
      <span className="truncate">{name}</span>
      {name !== entry.key && <span className="shrink-0 text-xs text-muted-foreground">{entry.key}</span>}
    </span>
  );
}

const Path = ({ entry }: { entry: RankedEntry }) => <span className="font-mono text-[13px]">{entry.key}</span>;

export function Breakdowns({ data }: { data: AnalyticsResponse }) {
  const span = `in the last ${ANALYTICS_RANGE_LABELS[data.range]}`;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <RankedList
          title={ANALYTICS_TEXT.topPages}
          icon={<FileText />}
          entries={data.top_pages}
          keyHeading="Page"
          countHeading="Views"
          empty={`No page views ${span}.`}
          renderKey={(entry) => <Path entry={entry} />}
        />
        <RankedList
          title={ANALYTICS_TEXT.topReferrers}
          icon={<Link2 />}
          entries={data.top_referrers}
          keyHeading="Site"
          countHeading="Views"
          empty={`${ANALYTICS_TEXT.noReferrers}.`}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <RankedList
          title={ANALYTICS_TEXT.notFound}
          icon={<FileWarning />}
          entries={data.not_found}
          keyHeading="Path"
          countHeading="Requests"
          empty={`No broken links ${span}.`}
          renderKey={(entry) => <Path entry={entry} />}
          barClassName="bg-destructive/10"
        />
        <RankedList
          title={ANALYTICS_TEXT.statuses}
          icon={<Hash />}
          entries={data.statuses}
          keyHeading="Status"
          countHeading="Requests"
          empty={`No requests ${span}.`}
          renderKey={(entry) => <StatusKey entry={entry} />}
          barClassName="bg-muted"
        />
        <RankedList
          title={ANALYTICS_TEXT.countries}
          icon={<Earth />}
          entries={data.countries_enabled ? data.countries : []}
          keyHeading="Country"
          countHeading="Views"
          empty={data.countries_enabled ? `No page views ${span}.` : ANALYTICS_TEXT.noCountries}
          renderKey={(entry) => <CountryKey entry={entry} />}
        />
      </div>
    </div>
  );
}
