// The Sharing tab's visibility switch (Pro): a private site answers every host with the private
// page, except to browsers that opened one of its share links. Turning it off works on any plan,
// so a site made private on Pro can be opened again after a downgrade.
import { Eye, EyeOff } from "lucide-react";
import { SHARE_LINK_UI_TEXT } from "../../../common/shareLinks";
import type { SiteResponse, StatsResponse } from "../../../common/sites";
import { cn } from "../../lib/cn";
import { Switch } from "../settings/Switch";
import { PlanFeaturePrompt } from "../sites/detail/PlanFeaturePrompt";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { Label } from "../ui/Label";
import { useSetVisibility } from "./useShareLinkActions";

/** `stats` is the user's plan as GET /api/stats reports it; undefined while it loads. */
export function VisibilityCard({ site, stats }: { site: SiteResponse; stats: StatsResponse | undefined }) {
  const setVisibility = useSetVisibility(site.id);
  const isPrivate = site.visibility === "private";
  // Until the plan is known the switch waits, rather than flash an upgrade prompt at Pro users.
  const planId = stats?.plan;
  const allowed = stats?.features.privateSites ?? false;
  const Icon = isPrivate ? EyeOff : Eye;

  return (
    <Card>
      <CardHeader className="border-b">
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          <Icon className="size-4 text-muted-foreground" aria-hidden />
          Visibility
          <span
            className={cn(
              "rounded-full px-2 py-0.5 text-xs font-medium",
              isPrivate ? "bg-primary/10 text-primary" : "bg-muted text-muted-foreground",
            )}
          >
            {isPrivate ? "Private" : "Public"}
          </span>
        </CardTitle>
        <CardDescription>Who can open this site at its address, its version addresses and its custom domains.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 pt-6">
        <div className="flex items-center justify-between gap-6">
          <div className="grid gap-1">
            <Label htmlFor="site-private" className="cursor-pointer">
              {SHARE_LINK_UI_TEXT.privateSwitch}
            </Label>
            <p id="site-private-body" className="text-sm text-muted-foreground">
              Visitors without a link see a page saying the site is private. Anyone who opens one of the share links below sees the site in that
              browser.
            </p>
          </div>
          <Switch
            id="site-private"
            checked={isPrivate}
            onCheckedChange={(on) => setVisibility.mutate(on ? "private" : "public")}
            disabled={setVisibility.isPending || site.is_deleted || (!isPrivate && !allowed)}
            aria-describedby="site-private-body"
          />
        </div>
        {planId && !allowed ? <PlanFeaturePrompt feature="privateSites" planId={planId} /> : null}
      </CardContent>
    </Card>
  );
}
