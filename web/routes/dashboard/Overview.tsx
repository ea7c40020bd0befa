// /dashboard: the user's figures (GET /api/stats), the three newest sites, the plan, and tips.
// A user with no sites yet sees the get-started steps in place of the recent list.
import { useEffect } from "react";
import { Link } from "react-router";
import { Plus } from "lucide-react";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { GetStarted } from "../../components/sites/GetStarted";
import { HelpCard, PlanCard, TipsCard } from "../../components/sites/OverviewCards";
import { RecentSites } from "../../components/sites/RecentSites";
import { listStatusOf } from "../../components/sites/siteList";
import { StatCards } from "../../components/sites/StatCards";
import { Button } from "../../components/ui/Button";
import { useSites, useStats } from "../../lib/queries";
import { usePublicConfig } from "../../lib/usePublicConfig";

export function Overview() {
  const config = usePublicConfig();
  const stats = useStats();
  const sites = useSites();
  const sitesDomain = config.data?.sitesDomain ?? "your-domain";

  useEffect(() => {
    document.title = `${DASHBOARD_TEXT.nav.dashboard} · ${PRODUCT_NAME}`;
  }, []);

  // On the overview a failed site fetch is logged, not toasted: the recent-sites card shows the failure
  // in place; the 'Error fetching sites' toast is the site list's.
  useEffect(() => {
    if (sites.error) console.error(DASHBOARD_TEXT.errorFetchingSites, sites.error);
  }, [sites.error]);

  const isNew = sites.isSuccess && sites.data.length === 0;

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{isNew ? `Welcome to ${PRODUCT_NAME}` : "Overview"}</h1>
          <p className="mt-1.5 max-w-2xl text-sm leading-relaxed text-muted-foreground sm:text-base">
            {isNew
              ? "Publish an HTML page, a PDF or a zipped static site and share it in seconds."
              : "Your sites, deployments and storage at a glance."}
          </p>
        </div>
        <Button asChild>
          <Link to="/dashboard/sites/new">
            <Plus aria-hidden />
            Create Site
          </Link>
        </Button>
      </div>

      <StatCards stats={stats.data} loading={stats.isPending} liveSites={sites.data?.filter((site) => listStatusOf(site) === "active").length} />

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {isNew ? (
            <GetStarted sitesDomain={sitesDomain} stats={stats.data} />
          ) : (
            <RecentSites
              sites={sites.data ?? []}
              loading={sites.isPending}
              failed={sites.isError}
              onRetry={() => void sites.refetch()}
              retrying={sites.isFetching}
            />
          )}
        </div>
        <div className="flex flex-col gap-6">
          <PlanCard stats={stats.data} />
          {isNew ? <HelpCard /> : <TipsCard />}
        </div>
      </div>
    </div>
  );
}
