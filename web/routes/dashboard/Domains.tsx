// /dashboard/domains: every custom domain of the user across sites, with live provisioning status,
// and a form to add one. On the Free plan the list still shows (domains added while on Pro can be
// removed) but the form gives way to the plans dialog.
import { useEffect, useMemo } from "react";
import { useSearchParams } from "react-router";
import { DOMAIN_UI_TEXT } from "../../../common/domains";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { AddDomainForm } from "../../components/domains/AddDomainForm";
import { DomainList } from "../../components/domains/DomainList";
import { sitesForDomains } from "../../components/domains/domains";
import { useDomainEvents } from "../../components/domains/useDomainEvents";
import { PlanFeaturePrompt } from "../../components/sites/detail/PlanFeaturePrompt";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { Skeleton } from "../../components/ui/Skeleton";
import { useDomains, useSites, useStats } from "../../lib/queries";

export function Domains() {
  const domains = useDomains();
  const stats = useStats();
  const sites = useSites();
  const [params] = useSearchParams();
  const planId = stats.data?.plan;
  const sitesToChoose = useMemo(() => sitesForDomains(sites.data), [sites.data]);

  useDomainEvents();

  useEffect(() => {
    document.title = `${DASHBOARD_TEXT.nav.domains} · ${PRODUCT_NAME}`;
  }, []);

  return (
    <div className="flex flex-col gap-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{DASHBOARD_TEXT.nav.domains}</h1>
        <p className="mt-1.5 max-w-2xl text-sm text-muted-foreground">
          Serve your sites on your own domain names. Add a domain, create the DNS records shown, and {PRODUCT_NAME} checks them before serving the
          site there.
        </p>
      </div>

      <Card>
        <CardHeader className="pb-4">
          <CardTitle className="text-base">Add a domain</CardTitle>
          <CardDescription>Use a subdomain such as www.example.com, or an apex domain such as example.com.</CardDescription>
        </CardHeader>
        <CardContent>
          {!planId || sites.isPending ? (
            <Skeleton className="h-[4.25rem] w-full" />
          ) : !stats.data?.features.customDomains ? (
            <PlanFeaturePrompt feature="customDomains" planId={planId} />
          ) : sitesToChoose.length === 0 ? (
            <p className="text-sm text-muted-foreground">{DOMAIN_UI_TEXT.noSites}</p>
          ) : (
            <AddDomainForm key={params.get("site") ?? ""} sites={sitesToChoose} initialSiteId={params.get("site") ?? undefined} />
          )}
        </CardContent>
      </Card>

      <section aria-labelledby="domains-heading" className="flex flex-col gap-4">
        <h2 id="domains-heading" className="text-lg font-semibold tracking-tight">
          Your domains
        </h2>
        <DomainList
          domains={domains.data}
          failed={domains.isError}
          onRetry={() => void domains.refetch()}
          retrying={domains.isFetching}
          showSite
          emptyBody="Domains you add show here, with the DNS records to create and their status."
        />
      </section>
    </div>
  );
}
