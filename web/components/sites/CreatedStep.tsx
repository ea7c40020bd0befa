// The wizard's last step, Deploy: the site is live, and its first version's publish check runs
// while the user looks. Problems show here with their fixes, so a broken link or a missing index
// is dealt with before the address is shared.
import { Link } from "react-router";
import { ArrowRight, ArrowUpRight, PartyPopper } from "lucide-react";
import type { SiteResponse } from "../../../common/sites";
import { useDeployments } from "../../lib/queries";
import { Button } from "../ui/Button";
import { Spinner } from "../ui/Spinner";
import { CheckResults } from "./detail/CheckResults";
import { useSiteEvents } from "./detail/useSiteEvents";

export function CreatedStep({ site }: { site: SiteResponse }) {
  // The check's result arrives as a server event, which refreshes the deployments.
  useSiteEvents(site.id);
  const deployments = useDeployments(site.id);
  const live = deployments.data?.find((d) => d.is_live) ?? deployments.data?.[0];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-start gap-3.5">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-success/10 text-success">
          <PartyPopper className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="font-medium">{site.name} is live at</p>
          <a href={site.url} target="_blank" rel="noopener noreferrer" className="font-mono text-sm break-all text-primary hover:underline">
            {site.url}
          </a>
        </div>
      </div>
      <section aria-labelledby="check-heading" className="rounded-lg border p-4">
        <h3 id="check-heading" className="text-sm font-semibold">
          Publish check
        </h3>
        <p className="mt-0.5 mb-3 text-xs text-muted-foreground">
          Links, images, scripts and styles are checked against the files you uploaded, as a web server will look them up.
        </p>
        {live ? (
          <CheckResults key={live.id} siteId={site.id} deploymentId={live.id} check={live.check} canFix defaultOpen />
        ) : (
          <Spinner className="size-4" label="Loading" />
        )}
      </section>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" asChild>
          <a href={site.url} target="_blank" rel="noopener noreferrer">
            Open site
            <ArrowUpRight aria-hidden />
          </a>
        </Button>
        <Button asChild>
          <Link to={`/dashboard/sites/${site.id}`}>
            Go to site
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </div>
    </div>
  );
}
