// The Settings tab's Domains card (Pro): this site's custom domains with their live status, and a
// form to add one. A Free user sees the list (to remove what was added on Pro) and the way to Pro.
import { Link2 } from "lucide-react";
import type { SiteResponse } from "../../../../common/sites";
import { useSiteDomains, useStats } from "../../../lib/queries";
import { AddDomainForm } from "../../domains/AddDomainForm";
import { DomainList } from "../../domains/DomainList";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../ui/Card";
import { PlanFeaturePrompt } from "./PlanFeaturePrompt";

export function DomainsCard({ site }: { site: SiteResponse }) {
  const domains = useSiteDomains(site.id);
  const stats = useStats().data;

  return (
    <Card>
      <CardHeader className="border-b">
        <CardTitle className="flex items-center gap-2 text-base">
          <Link2 className="size-4 text-muted-foreground" aria-hidden />
          Domains
        </CardTitle>
        <CardDescription>Serve this site on domain names you own, as well as on its own address.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6 pt-6">
        {stats && !stats.features.customDomains ? (
          <PlanFeaturePrompt feature="customDomains" planId={stats.plan} />
        ) : (
          <AddDomainForm siteId={site.id} disabled={!stats || site.is_deleted} />
        )}
        <DomainList
          domains={domains.data}
          failed={domains.isError}
          onRetry={() => void domains.refetch()}
          retrying={domains.isFetching}
          showSite={false}
          compact
          emptyBody="Domains you add show here, with the DNS records to create and their status."
        />
      </CardContent>
    </Card>
  );
}
