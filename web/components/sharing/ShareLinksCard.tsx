// The Sharing tab's share links (Pro): each an unguessable address that opens the site for the
// browser that follows it, with its views, expiry and access log. A Free user still sees, revokes
// and deletes links made while on Pro; making new ones leads to the plans dialog.
import { useState } from "react";
import { Plus, Share2 } from "lucide-react";
import { SHARE_LINK_UI_TEXT } from "../../../common/shareLinks";
import type { SiteResponse, StatsResponse } from "../../../common/sites";
import { useShareLinks } from "../../lib/queries";
import { useNow } from "../../lib/useNow";
import { PlanFeaturePrompt } from "../sites/detail/PlanFeaturePrompt";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Loading, Skeleton } from "../ui/Skeleton";
import { NewShareLinkDialog } from "./NewShareLinkDialog";
import { ShareLinkItem } from "./ShareLinkItem";

/** `stats` is the user's plan as GET /api/stats reports it; undefined while it loads. */
export function ShareLinksCard({ site, stats }: { site: SiteResponse; stats: StatsResponse | undefined }) {
  const links = useShareLinks(site.id);
  const now = useNow(30_000);
  const [creating, setCreating] = useState(false);
  const planId = stats?.plan;
  const allowed = stats?.features.expiringLinks ?? false;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle className="flex items-center gap-2 text-base">
            <Share2 className="size-4 text-muted-foreground" aria-hidden />
            Share links
          </CardTitle>
          <CardDescription>
            Private addresses that open this site without its password, each with its own expiry, password and view limit.
          </CardDescription>
        </div>
        {allowed && (
          <Button onClick={() => setCreating(true)} disabled={site.is_deleted}>
            <Plus aria-hidden />
            New share link
          </Button>
        )}
      </CardHeader>
      <CardContent className="p-0">
        {planId && !allowed && (
          <div className="px-4 py-4 not-last:border-b sm:px-6">
            <PlanFeaturePrompt feature="expiringLinks" planId={planId} />
          </div>
        )}
        {links.isPending ? (
          <Loading label="Loading share links" className="grid gap-3 px-6 py-5">
            <Skeleton className="h-5 w-48" />
            <Skeleton className="h-8 w-full" />
          </Loading>
        ) : links.isError ? (
          <LoadError
            inline
            title="Failed to load share links"
            onRetry={() => void links.refetch()}
            retrying={links.isFetching}
            className="px-6 py-5"
          />
        ) : links.data.length === 0 ? (
          // On Free the prompt above says it all.
          allowed && (
            <div className="px-6 py-8 text-center">
              <p className="text-sm font-medium">{SHARE_LINK_UI_TEXT.noLinks}</p>
              <p className="mt-1 text-sm text-muted-foreground">Create one for each person or group you share the site with.</p>
            </div>
          )
        ) : (
          <ul className="divide-y" aria-label="Share links">
            {links.data.map((link) => (
              <ShareLinkItem key={link.id} link={link} siteId={site.id} now={now} readOnly={site.is_deleted} />
            ))}
          </ul>
        )}
      </CardContent>
      <NewShareLinkDialog siteId={site.id} open={creating} onOpenChange={setCreating} />
    </Card>
  );
}
