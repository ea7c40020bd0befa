import { Link } from "react-router";
import { ArrowRight, ChevronRight } from "lucide-react";
import type { SiteResponse } from "../../../common/sites";
import { timeAgo } from "../../../common/format";
import { Card, CardHeader, CardTitle } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Loading, Skeleton, SkeletonRow } from "../ui/Skeleton";
import { displayUrl } from "./siteList";
import { SiteAvatar } from "./SiteAvatar";
import { SiteStatusBadge } from "./SiteStatusBadge";

/** The overview's three newest sites, each a link to its page. */
export function RecentSites({
  sites,
  loading,
  failed,
  onRetry,
  retrying,
}: {
  sites: SiteResponse[];
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <Card className="overflow-hidden">
      <CardHeader className="flex-row items-center justify-between gap-3 border-b py-4">
        <CardTitle className="text-base">Recent sites</CardTitle>
        <Link to="/dashboard/sites" className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary hover:underline">
          View all
          <ArrowRight className="size-4" aria-hidden />
        </Link>
      </CardHeader>
      {loading ? (
        <Loading label="Loading recent sites" className="divide-y">
          {[0, 1, 2].map((i) => (
            <SkeletonRow key={i} className="px-6 py-4">
              <Skeleton className="hidden h-6 w-16 rounded-full sm:block" />
            </SkeletonRow>
          ))}
        </Loading>
      ) : failed ? (
        <LoadError inline title="Your sites could not be loaded." onRetry={onRetry} retrying={retrying} className="px-6 py-5" />
      ) : (
        <ul className="divide-y">
          {sites.slice(0, 3).map((site) => (
            <li key={site.id}>
              <Link
                to={`/dashboard/sites/${site.id}`}
                className="group flex items-center gap-3 px-4 py-4 transition-colors hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-2 focus-visible:-outline-offset-2 sm:px-6"
              >
                <SiteAvatar name={site.name} seed={site.subdomain} />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{site.name}</p>
                  <p className="truncate text-xs text-muted-foreground sm:text-sm">
                    {displayUrl(site)}
                    <span className="max-sm:hidden"> · {timeAgo(new Date(site.created_at))}</span>
                  </p>
                </div>
                <SiteStatusBadge site={site} className="max-sm:hidden" />
                <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5" aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
