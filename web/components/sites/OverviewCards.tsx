// The overview's side cards: the user's plan, tips, and help.
import { Link } from "react-router";
import { ArrowUpRight, BookOpen, FileArchive, KeyRound, Lightbulb, Link2, Share2, Sparkles, type LucideIcon } from "lucide-react";
import { formatPlanLimit } from "../../../common/plans";
import type { StatsResponse } from "../../../common/sites";
import { UpgradeDialog } from "../dashboard/UpgradeDialog";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { Skeleton } from "../ui/Skeleton";
import { usePlans } from "../../lib/usePlans";

/** The plan the server reports (GET /api/stats); a skeleton until it is known. */
export function PlanCard({ stats }: { stats: StatsResponse | undefined }) {
  const plans = usePlans();
  return (
    <Card>
      <CardHeader className="pb-4">
        <div className="flex items-center justify-between gap-2">
          <CardTitle className="text-base">Your plan</CardTitle>
          {stats ? (
            <span
              className={
                stats.plan !== plans?.defaultPlan
                  ? "rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground"
                  : "rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground"
              }
            >
              {stats.plan_name}
            </span>
          ) : (
            <Skeleton className="h-5 w-12 rounded-full" />
          )}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div className="rounded-lg bg-muted/60 p-3">
            <dt className="text-xs text-muted-foreground">Storage</dt>
            <dd className="mt-0.5 font-semibold">{stats ? formatPlanLimit(stats.storage_quota) : <Skeleton className="mt-1 h-4 w-14" />}</dd>
          </div>
          <div className="rounded-lg bg-muted/60 p-3">
            <dt className="text-xs text-muted-foreground">Per file</dt>
            <dd className="mt-0.5 font-semibold">{stats ? formatPlanLimit(stats.max_file_bytes) : <Skeleton className="mt-1 h-4 w-14" />}</dd>
          </div>
        </dl>
        <UpgradeDialog currentPlan={stats?.plan}>
          <Button variant="outline" className="w-full">
            <Sparkles aria-hidden />
            Compare plans
          </Button>
        </UpgradeDialog>
      </CardContent>
    </Card>
  );
}

const TIPS: { Icon: LucideIcon; title: string; body: string; to?: string }[] = [
  {
    Icon: FileArchive,
    title: "Deploy a whole site from a zip",
    body: "Zip the folder that holds your index.html. It is unpacked and every page, style and image is served.",
  },
  {
    Icon: Share2,
    title: "Share the link",
    body: "Each site has its own address. Anyone can open it; upload again and the same link shows the new version.",
  },
  {
    Icon: Link2,
    title: "Use your own domain",
    body: "Serve a site on a domain you own, such as www.example.com, as well as on its own address, on a plan with custom domains.",
    to: "/dashboard/domains",
  },
  {
    Icon: KeyRound,
    title: "Deploy from scripts and CI",
    body: "Create an API token for a build job or script, so it can deploy your sites without signing in.",
    to: "/dashboard/integrations",
  },
];

export function TipsCard() {
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle className="flex items-center gap-2 text-base">
          <Lightbulb className="size-4 text-primary" aria-hidden />
          Tips
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-4">
          {TIPS.map(({ Icon, title, body, to }) => (
            <li key={title} className="flex gap-3">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-accent text-primary">
                <Icon className="size-4" aria-hidden />
              </span>
              <div className="min-w-0">
                <p className="text-sm font-medium">
                  {to ? (
                    <Link to={to} className="rounded-sm text-primary hover:underline">
                      {title}
                    </Link>
                  ) : (
                    title
                  )}
                </p>
                <p className="mt-0.5 text-sm leading-relaxed text-muted-foreground">{body}</p>
              </div>
            </li>
          ))}
        </ul>
        <HelpLink className="mt-5 border-t pt-4" />
      </CardContent>
    </Card>
  );
}

function HelpLink({ className }: { className?: string }) {
  return (
    <div className={className}>
      <Link to="/docs" className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary hover:underline">
        <BookOpen className="size-4" aria-hidden />
        Read the documentation
        <ArrowUpRight className="size-4" aria-hidden />
      </Link>
    </div>
  );
}

export function HelpCard() {
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle className="flex items-center gap-2 text-base">
          <BookOpen className="size-4 text-primary" aria-hidden />
          Need help?
        </CardTitle>
        <CardDescription>How uploads, subdomains and zipped sites work, and what to do when a page doesn't show up.</CardDescription>
      </CardHeader>
      <CardContent>
        <Link to="/docs" className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary hover:underline">
          Read the documentation
          <ArrowUpRight className="size-4" aria-hidden />
        </Link>
      </CardContent>
    </Card>
  );
}
