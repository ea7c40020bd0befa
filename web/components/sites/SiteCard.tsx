import { Link } from "react-router";
import { ArrowUpRight, CalendarDays, Eye, Files, Trash2 } from "lucide-react";
import { SITE_TEXT, daysUntilPurge, type SiteResponse } from "../../../common/sites";
import { formatBytes } from "../../../common/format";
import { useSiteViews7d } from "../../lib/queries";
import { countOf } from "../analytics/format";
import { Button } from "../ui/Button";
import { displayUrl, listStatusOf } from "./siteList";
import { SiteAvatar } from "./SiteAvatar";
import { SiteStatusBadge } from "./SiteStatusBadge";

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    month: "short",
    day: "numeric",
    year: "numeric",
  });
}

export function fileSummary(site: Pick<SiteResponse, "file_count" | "size">): string {
  const files = `${site.file_count} ${site.file_count === 1 ? "file" : "files"}`;
  return `${files} · ${formatBytes(site.size)}`;
}

/** The live address: a link that opens in a new tab when the site is served, plain text otherwise. */
export function SiteAddress({ site, className }: { site: SiteResponse; className?: string }) {
  const address = displayUrl(site);
  if (listStatusOf(site) !== "active") {
    return <span className={`truncate text-sm text-muted-foreground ${className ?? ""}`}>{address}</span>;
  }
  return (
    <a
      href={site.url}
      target="_blank"
      rel="noopener noreferrer"
      className={`group/url relative z-10 inline-flex min-w-0 items-center gap-1 rounded-sm text-sm text-muted-foreground hover:text-foreground hover:underline ${className ?? ""}`}
    >
      <span className="truncate">{address}</span>
      <ArrowUpRight className="size-3.5 shrink-0 opacity-60 group-hover/url:opacity-100" aria-hidden />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

/**
 * One site in the list. The Manage link stretches over the card, so the whole card opens the site;
 * the address link sits above it (z-10) and still opens the live site.
 */
export function SiteCard({ site }: { site: SiteResponse }) {
  const status = listStatusOf(site);
  // From the list's own answer (same query), so the cards cost no extra request.
  const views = useSiteViews7d().data?.[site.id] ?? 0;
  const days = status === "marked_for_deletion" && site.deleted_at ? daysUntilPurge(new Date(site.deleted_at)) : null;
  return (
    <article className="group relative flex w-full min-w-0 flex-col rounded-xl border bg-card shadow-sm transition-[border-color,box-shadow] hover:border-primary/30 hover:shadow-md focus-within:border-primary/40">
      <div className="flex items-start gap-3 p-5 pb-0">
        <SiteAvatar name={site.name} seed={site.subdomain} className={status === "marked_for_deletion" ? "grayscale" : undefined} />
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold leading-6 tracking-tight">{site.name}</h3>
          <SiteAddress site={site} className="max-w-full" />
        </div>
        <SiteStatusBadge site={site} />
      </div>
      {site.description ? <p className="line-clamp-2 px-5 pt-3 text-sm leading-relaxed text-muted-foreground">{site.description}</p> : null}
      <div className="min-h-4 flex-1" aria-hidden />
      <div className="flex items-center gap-3 border-t px-5 py-3 text-xs text-muted-foreground">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 gap-y-1">
          {days !== null ? (
            <span className="inline-flex items-center gap-1.5 font-medium text-destructive">
              <Trash2 className="size-3.5" aria-hidden />
              {days} {days === 1 ? "day" : "days"} until deletion
            </span>
          ) : (
            <span className="inline-flex items-center gap-1.5">
              <CalendarDays className="size-3.5" aria-hidden />
              <time dateTime={site.created_at} title={new Date(site.created_at).toLocaleString()}>
                Created {formatDate(site.created_at)}
              </time>
            </span>
          )}
          <span className="inline-flex items-center gap-1.5">
            <Files className="size-3.5" aria-hidden />
            {fileSummary(site)}
          </span>
          {status !== "marked_for_deletion" && (
            <span className="inline-flex items-center gap-1.5" title="Page views over the last 7 days">
              <Eye className="size-3.5" aria-hidden />
              {countOf(views, "view")} · 7 days
            </span>
          )}
        </div>
        <Button asChild variant="outline" size="sm" className="static h-7 px-2.5">
          <Link
            to={`/dashboard/sites/${site.id}`}
            aria-label={`${SITE_TEXT.manage} ${site.name}`}
            className="after:absolute after:inset-0 after:rounded-xl after:content-['']"
          >
            {SITE_TEXT.manage}
          </Link>
        </Button>
      </div>
    </article>
  );
}
