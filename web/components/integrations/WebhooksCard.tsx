// Webhooks (GET /api/webhooks): what they are for, the list, Add webhook. On the Integrations page
// it lists every webhook; on a site's settings (`site`) only those that hear of that site (its own
// and those for all sites), and Add webhook starts with that site chosen.
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Plus, Webhook } from "lucide-react";
import type { AppRoute } from "../../../common/routes";
import type { SiteResponse } from "../../../common/sites";
import { useSites, useWebhooks } from "../../lib/queries";
import { useNow } from "../../lib/useNow";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { Loading, SkeletonRow } from "../ui/Skeleton";
import { NewWebhookDialog } from "./NewWebhookDialog";
import { WebhookItem } from "./WebhookItem";
import { ALL_SITES, webhooksForSite } from "./webhooks";

export function WebhooksCard({ site }: { site?: SiteResponse }) {
  const webhooks = useWebhooks();
  const sites = useSites();
  const now = useNow(30_000);
  const [creating, setCreating] = useState(false);
  // A site marked for deletion can only be restored; it takes no new webhook.
  const sitesToChoose = useMemo(() => (sites.data ?? []).filter((s) => !s.is_deleted), [sites.data]);
  const shown = useMemo(() => (site ? webhooksForSite(webhooks.data ?? [], site.id) : (webhooks.data ?? [])), [site, webhooks.data]);
  const canAdd = !site?.is_deleted;
  const add = (
    <Button onClick={() => setCreating(true)} disabled={!canAdd}>
      <Plus aria-hidden />
      Add webhook
    </Button>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle className="flex items-center gap-2 text-base">
            <Webhook className="size-4 text-muted-foreground" aria-hidden />
            Webhooks
          </CardTitle>
          <CardDescription className="leading-relaxed">
            {site ? (
              <>
                Berth tells these URLs when this site is deployed, fails to deploy, is rolled back or is deleted. Webhooks for all your sites are
                listed too; manage every webhook on the{" "}
                <Link to={"/dashboard/integrations" satisfies AppRoute} className="font-medium text-foreground underline underline-offset-4">
                  Integrations
                </Link>{" "}
                page.
              </>
            ) : (
              <>
                Berth sends a signed POST request to your URL when a deploy succeeds or fails, a site is rolled back or deleted: purge a CDN, post to
                chat or start a job. Failed deliveries are retried for a day.
              </>
            )}
          </CardDescription>
        </div>
        {webhooks.isSuccess && shown.length > 0 && add}
      </CardHeader>
      <CardContent className="p-0">
        {webhooks.isPending ? (
          <Loading label="Loading webhooks" className="divide-y">
            {[0, 1].map((row) => (
              <SkeletonRow key={row} media="size-8 rounded-full" className="px-6 py-4" />
            ))}
          </Loading>
        ) : webhooks.isError ? (
          <LoadError
            inline
            title="Failed to load webhooks"
            message={webhooks.error.message}
            onRetry={() => void webhooks.refetch()}
            retrying={webhooks.isFetching}
            className="px-6 py-5"
          />
        ) : shown.length === 0 ? (
          <Placeholder
            icon={<Webhook className="size-6" aria-hidden />}
            title="No webhooks yet"
            body={
              site
                ? "Add one to hear of this site's deploys, rollbacks and deletion at your own URL."
                : "Add one to hear of your sites' deploys, rollbacks and deletions at your own URL."
            }
            heading="h3"
            className="m-4 py-10 sm:m-6"
          >
            {add}
          </Placeholder>
        ) : (
          <ul className="divide-y" aria-label="Webhooks">
            {shown.map((webhook) => (
              <WebhookItem key={webhook.id} webhook={webhook} now={now} />
            ))}
          </ul>
        )}
      </CardContent>
      <NewWebhookDialog open={creating} onOpenChange={setCreating} sites={sitesToChoose} siteId={site?.id ?? ALL_SITES} />
    </Card>
  );
}
