// The Analytics tab's other faces: loading, and a site nobody has visited yet.
import { ArrowUpRight, BarChart3 } from "lucide-react";
import { ANALYTICS_TEXT } from "../../../common/analytics";
import { Button } from "../ui/Button";
import { Placeholder } from "../ui/Placeholder";
import { Loading, Skeleton } from "../ui/Skeleton";

export function AnalyticsSkeleton() {
  return (
    <Loading label="Loading analytics" className="flex flex-col gap-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:gap-4">
        {[0, 1, 2].map((i) => (
          <div key={i} className="rounded-xl border bg-card p-4 shadow-sm sm:p-5">
            <div className="flex items-center justify-between">
              <Skeleton className="h-4 w-24" />
              <Skeleton className="size-8 rounded-lg" />
            </div>
            <Skeleton className="mt-3 h-8 w-20" />
            <Skeleton className="mt-3 h-4 w-36" />
          </div>
        ))}
      </div>
      <div className="rounded-xl border bg-card p-4 shadow-sm sm:p-5">
        <Skeleton className="h-4 w-40" />
        <Skeleton className="mt-4 h-[190px] w-full sm:h-[250px]" />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {[0, 1].map((i) => (
          <div key={i} className="space-y-3 rounded-xl border bg-card p-4 shadow-sm sm:p-5">
            <Skeleton className="h-4 w-28" />
            {[0, 1, 2, 3].map((row) => (
              <Skeleton key={row} className="h-7 w-full" />
            ))}
          </div>
        ))}
      </div>
    </Loading>
  );
}

/** Nobody has visited the site yet: say so and how the counting works, instead of a flat chart. */
export function AnalyticsEmpty({ siteUrl }: { siteUrl: string | null }) {
  return (
    <Placeholder icon={<BarChart3 className="size-6" aria-hidden />} title={ANALYTICS_TEXT.emptyTitle} body={ANALYTICS_TEXT.emptyBody}>
      {siteUrl && (
        <Button asChild variant="outline">
          <a href={siteUrl} target="_blank" rel="noopener noreferrer">
            Visit Site
            <ArrowUpRight aria-hidden />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </Button>
      )}
    </Placeholder>
  );
}
