import type { ReactNode } from "react";
import { Activity, Globe, HardDrive, Rocket, type LucideIcon } from "lucide-react";
import type { StatsResponse } from "../../../common/sites";
import { formatBytes } from "../../../common/format";
import { DASHBOARD_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { Skeleton } from "../ui/Skeleton";
import { usageBarWidth, usageLabel, usagePercent } from "./usage";

function StatCard({
  Icon,
  label,
  loading,
  children,
  footer,
}: {
  Icon: LucideIcon;
  label: string;
  loading: boolean;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex flex-col rounded-xl border bg-card p-4 shadow-sm sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <span className="flex size-8 items-center justify-center rounded-lg bg-accent text-primary">
          <Icon className="size-4" aria-hidden />
        </span>
      </div>
      <div className="mt-2 min-h-8 sm:mt-3">{loading ? <Skeleton className="h-8 w-20" /> : children}</div>
      {(footer || loading) && <div className="mt-auto pt-3">{loading ? <Skeleton className="h-3.5 w-28" /> : footer}</div>}
    </div>
  );
}

const VALUE = "text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl";

/** The overview's four figures. Bandwidth is what the edge sent for all the user's sites in 30 days. */
export function StatCards({
  stats,
  loading,
  liveSites,
}: {
  stats: StatsResponse | undefined;
  loading: boolean;
  /** Sites being served now, from the site list; no footer line until it is known. */
  liveSites: number | undefined;
}) {
  const dash = "—";
  const quota = stats?.storage_quota ?? null;
  const percent = stats && quota !== null ? usagePercent(stats.storage_used, quota) : 0;
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        Icon={Globe}
        label={DASHBOARD_TEXT.stats.totalSites}
        loading={loading}
        footer={
          liveSites !== undefined && (
            <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <span className="size-1.5 rounded-full bg-success" aria-hidden />
              {liveSites} live now
            </p>
          )
        }
      >
        <p className={VALUE}>{stats ? stats.total_sites : dash}</p>
      </StatCard>
      <StatCard
        Icon={Rocket}
        label={DASHBOARD_TEXT.stats.deployments}
        loading={loading}
        footer={<p className="text-xs text-muted-foreground">Published versions, all sites</p>}
      >
        <p className={VALUE}>{stats ? stats.deployments : dash}</p>
      </StatCard>
      <StatCard
        Icon={HardDrive}
        label={DASHBOARD_TEXT.stats.storageUsed}
        loading={loading}
        footer={
          stats &&
          (quota === null ? (
            <p className="text-xs text-muted-foreground">Unlimited storage on the {stats.plan_name} plan</p>
          ) : (
            <div>
              <div
                role="progressbar"
                aria-label="Storage used"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                className="h-1.5 overflow-hidden rounded-full bg-muted"
              >
                <div
                  className={cn("h-full rounded-full", percent >= 90 ? "bg-destructive" : percent >= 75 ? "bg-warning" : "bg-primary")}
                  style={{
                    width: `${usageBarWidth(stats.storage_used, quota)}%`,
                  }}
                />
              </div>
              <p className="mt-1.5 text-xs text-muted-foreground">
                of {formatBytes(quota)} · {usageLabel(stats.storage_used, quota)}
              </p>
            </div>
          ))
        }
      >
        <p className={VALUE}>{stats ? formatBytes(stats.storage_used) : dash}</p>
      </StatCard>
      <StatCard
        Icon={Activity}
        label={DASHBOARD_TEXT.stats.bandwidth}
        loading={loading}
        footer={<p className="text-xs text-muted-foreground">Last 30 days, all sites</p>}
      >
        <p className={VALUE}>{stats ? formatBytes(stats.bandwidth_30d) : dash}</p>
      </StatCard>
    </section>
  );
}
