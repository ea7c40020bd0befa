import type { ReactNode } from "react";
import { Pencil } from "lucide-react";
import { SITE_TEXT, type SiteResponse } from "../../../../common/sites";
import { Button } from "../../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../ui/Card";
import { WebhooksCard } from "../../integrations/WebhooksCard";
import { hostOf } from "../siteList";
import { DomainsCard } from "./DomainsCard";
import { PasswordCard } from "./PasswordCard";
import { ScheduleCard } from "./ScheduleCard";

/**
 * The site's settings, read-only ('Edit Settings' opens the same dialog as 'Edit Site', the one place to edit them), then
 * the site's custom domains, its schedule, its password and the webhooks that hear of it.
 */
export function SettingsTab({ site, onEdit }: { site: SiteResponse; onEdit: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b">
          <div className="grid gap-1.5">
            <CardTitle className="text-base">General</CardTitle>
            <CardDescription>How this site is named and where it is served.</CardDescription>
          </div>
          <Button variant="outline" onClick={onEdit} disabled={site.is_deleted}>
            <Pencil aria-hidden />
            {SITE_TEXT.editSettings}
          </Button>
        </CardHeader>
        <CardContent className="p-0">
          <dl className="divide-y">
            <Row label="Site Name">{site.name}</Row>
            <Row label="Subdomain">
              <span className="inline-flex max-w-full items-center overflow-hidden rounded-md border bg-muted/40 font-mono text-[13px]">
                <span className="truncate px-2.5 py-1 font-medium">{site.subdomain}</span>
                <span className="truncate border-l bg-muted px-2.5 py-1 text-muted-foreground">.{hostOf(site.url, site.subdomain)}</span>
              </span>
            </Row>
            <Row label="Description">
              {site.description ? (
                <span className="whitespace-pre-line">{site.description}</span>
              ) : (
                <span className="text-muted-foreground italic">No description</span>
              )}
            </Row>
          </dl>
        </CardContent>
      </Card>
      <DomainsCard site={site} />
      <ScheduleCard site={site} />
      <PasswordCard site={site} />
      <WebhooksCard site={site} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5 px-6 py-4 sm:grid-cols-[200px_1fr] sm:items-baseline sm:gap-6">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}
