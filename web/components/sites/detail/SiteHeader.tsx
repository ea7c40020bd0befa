// The top of a site page: where it lives, its status, and what can be done with it. A site marked
// for deletion offers only 'Restore Site': nothing else should change a site that is on its way out.
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { ArrowLeft, ArrowUpRight, Calendar, EyeOff, Files, HardDrive, Layers, Pencil, Rocket, RotateCcw, Trash2 } from "lucide-react";
import { DELETION_GRACE_DAYS, SITE_TEXT, type SiteResponse } from "../../../../common/sites";
import { formatBytes } from "../../../../common/format";
import { Button } from "../../ui/Button";
import { Spinner } from "../../ui/Spinner";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { SiteAvatar } from "../SiteAvatar";
import { SiteStatusBadge } from "../SiteStatusBadge";
import { displayUrl } from "../siteList";
import { useDeleteSite, useDeploySite, useRestoreSite } from "./actions";
import { ScheduleBadge } from "./ScheduleBadge";

export function SiteHeader({ site, onEdit }: { site: SiteResponse; onEdit: () => void }) {
  const address = displayUrl(site);
  const live = site.status === "active" && !site.is_deleted;
  return (
    <div className="flex flex-col gap-5">
      <Link
        to="/dashboard/sites"
        className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground transition-colors hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {SITE_TEXT.backToSites}
      </Link>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="flex min-w-0 items-start gap-4">
          <SiteAvatar name={site.name} seed={site.subdomain} className="size-12 text-lg" />
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
              <h1 className="min-w-0 break-words text-2xl font-semibold tracking-tight">{site.name}</h1>
              <SiteStatusBadge site={site} />
              {site.is_deleted ? null : <ScheduleBadge site={site} />}
              {site.visibility === "private" && !site.is_deleted && (
                <span
                  title="Only people with a share link can open this site"
                  className="inline-flex h-6 shrink-0 items-center gap-1.5 rounded-full border border-primary/25 bg-primary/10 px-2 text-xs font-medium whitespace-nowrap text-primary"
                >
                  <EyeOff className="size-3.5" aria-hidden />
                  Private
                </span>
              )}
            </div>
            {live ? (
              <a
                href={site.url}
                target="_blank"
                rel="noopener noreferrer"
                className="group mt-1 inline-flex max-w-full items-center gap-1 text-sm font-medium text-primary hover:underline"
              >
                <span className="truncate">{address}</span>
                <ArrowUpRight className="size-4 shrink-0 transition-transform group-hover:-translate-y-px group-hover:translate-x-px" aria-hidden />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            ) : (
              <p className="mt-1 truncate text-sm text-muted-foreground">{address}</p>
            )}
          </div>
        </div>
        <SiteActions site={site} onEdit={onEdit} />
      </div>
    </div>
  );
}

/** Live version, file count, size and age: what a glance at the site should tell. */
export function SiteFacts({ site }: { site: SiteResponse }) {
  const created = new Date(site.created_at);
  const facts = [
    {
      Icon: Layers,
      label: "Live version",
      value: site.live_version ? `Version ${site.live_version}` : "None yet",
    },
    { Icon: Files, label: "Files", value: site.file_count.toLocaleString() },
    { Icon: HardDrive, label: "Size", value: formatBytes(site.size) },
    {
      Icon: Calendar,
      label: "Created",
      value: created.toLocaleDateString(undefined, {
        year: "numeric",
        month: "short",
        day: "numeric",
      }),
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-xl border bg-border shadow-xs sm:grid-cols-4">
      {facts.map(({ Icon, label, value }) => (
        <div key={label} className="flex min-w-0 flex-col gap-1 bg-card px-4 py-3">
          <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
            <Icon className="size-3.5" aria-hidden />
            {label}
          </dt>
          <dd className="truncate text-sm font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function SiteActions({ site, onEdit }: { site: SiteResponse; onEdit: () => void }) {
  const deploy = useDeploySite(site.id);
  const restore = useRestoreSite(site.id);

  if (site.is_deleted) {
    return (
      <div className="flex shrink-0">
        <Button onClick={() => restore.mutate()} disabled={restore.isPending} className="w-full sm:w-auto">
          {restore.isPending ? <Spinner className="size-4 text-current" label="Restoring" /> : <RotateCcw aria-hidden />}
          {SITE_TEXT.restore}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex shrink-0 flex-wrap gap-2">
      {site.status !== "active" && (
        <Button onClick={() => deploy.mutate()} disabled={deploy.isPending}>
          {deploy.isPending ? <Spinner className="size-4 text-current" label="Deploying" /> : <Rocket aria-hidden />}
          {SITE_TEXT.deploySite}
        </Button>
      )}
      <Button variant="outline" onClick={onEdit}>
        <Pencil aria-hidden />
        {SITE_TEXT.editSite}
      </Button>
      <DeleteSiteButton site={site} />
    </div>
  );
}

function DeleteSiteButton({ site }: { site: SiteResponse }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteSite(site.id);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline" className="text-destructive hover:border-destructive/40 hover:bg-destructive/5 hover:text-destructive">
          <Trash2 aria-hidden />
          {SITE_TEXT.delete}
        </Button>
      }
      icon={
        <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <Trash2 className="size-5" aria-hidden />
        </div>
      }
      title={SITE_TEXT.deleteTitle}
      description={
        <>
          <strong className="font-medium text-foreground">{site.name}</strong> and all its files will be permanently deleted after{" "}
          {DELETION_GRACE_DAYS} days. It goes offline now, and you can restore it at any time within that period.
        </>
      }
      confirmLabel={SITE_TEXT.deleteConfirm}
      pendingLabel="Deleting"
      destructive
      failureTitle={SITE_TEXT.deleteFailed}
      failureDescription={SITE_TEXT.tryLater}
      // mutateAsync, not mutate's callbacks: storing the deleted site swaps these actions for
      // 'Restore Site', which unmounts this button before such callbacks would run.
      onConfirm={() => remove.mutateAsync().then(() => void navigate("/dashboard/sites"))}
    />
  );
}
