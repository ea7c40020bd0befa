import { PageHeader } from "../components/marketing/PageHeader";
import { MarketingLayout } from "../components/marketing/MarketingLayout";
import { Container } from "../components/marketing/Section";
import { DocsChips, DocsToc, type TocEntry } from "../components/marketing/docs/DocsToc";
import { GettingStarted } from "../components/marketing/docs/GettingStarted";
import { ApiSection, Changelog, Showcase } from "../components/marketing/docs/MoreSections";
import { CdnSection } from "../components/marketing/docs/CdnDocs";
import { CliSection } from "../components/marketing/docs/CliSection";
import { PlanLimits } from "../components/marketing/docs/PlanLimits";
import { SelfHosting } from "../components/marketing/docs/SelfHosting";
import { SiteConfigSection } from "../components/marketing/docs/SiteConfig";
import { WebhooksSection } from "../components/marketing/docs/WebhooksDocs";

const ENTRIES: TocEntry[] = [
  { id: "getting-started", label: "Getting started" },
  { id: "limits", label: "Plans and limits" },
  { id: "redirects-and-headers", label: "Redirects and headers" },
  { id: "cli", label: "Command line" },
  { id: "self-hosting", label: "Self-hosting" },
  { id: "api", label: "API reference" },
  { id: "webhooks", label: "Webhooks" },
  { id: "cdn", label: "CDN" },
  { id: "changelog", label: "Changelog" },
  { id: "showcase", label: "Showcase" },
];

export function Docs() {
  return (
    <MarketingLayout>
      <title>Docs · Berth</title>
      <PageHeader eyebrow="Documentation" title="Berth docs">
        Everything from your first upload to running Berth on your own server.
      </PageHeader>
      <Container className="pb-24 sm:pb-28">
        <div className="grid grid-cols-1 gap-10 lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-16">
          <aside className="hidden lg:block">
            <DocsToc entries={ENTRIES} className="sticky top-24" />
          </aside>
          <div className="min-w-0 max-w-3xl">
            <DocsChips entries={ENTRIES} className="mb-10 lg:hidden" />
            <div className="space-y-12">
              <GettingStarted />
              <PlanLimits />
              <SiteConfigSection />
              <CliSection />
              <SelfHosting />
              <ApiSection />
              <WebhooksSection />
              <CdnSection />
              <Changelog />
              <Showcase />
            </div>
          </div>
        </div>
      </Container>
    </MarketingLayout>
  );
}
