// One custom domain: its status, what went wrong, the DNS records to create, and what can be done.
import { useState } from "react";
import { Link } from "react-router";
import { AlertTriangle, ArrowUpRight, Clock, Globe, RotateCw } from "lucide-react";
import { timeAgo } from "../../../common/format";
import { DOMAIN_MAX_TRIES, DOMAIN_TEXT, DOMAIN_TRY_INTERVAL_MS, isProvisioning, type DomainResponse } from "../../../common/domains";
import { PRODUCT_NAME } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { DeleteButton } from "../ui/DeleteButton";
import { Spinner } from "../ui/Spinner";
import { DnsRecords } from "./DnsRecords";
import { DomainStatusBadge } from "./DomainStatusBadge";
import { triesLabel } from "./domains";
import { useCheckDomain, useRemoveDomain } from "./useDomainActions";

export function DomainItem({
  domain,
  showSite,
  now,
}: {
  domain: DomainResponse;
  /** On /dashboard/domains each domain names its site; on the site page that goes without saying. */
  showSite: boolean;
  now: Date;
}) {
  const check = useCheckDomain();
  const remove = useRemoveDomain();
  const [confirming, setConfirming] = useState(false);
  const active = domain.status === "active";
  const tries = triesLabel(domain);
  const created = new Date(domain.created_at);

  return (
    <li
      className={cn("flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-xs sm:p-5", active && "border-success/40 ring-1 ring-success/15")}
      aria-label={domain.hostname}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 gap-3.5">
          <span className="hidden size-9 shrink-0 items-center justify-center rounded-full bg-accent text-primary sm:flex">
            <Globe className="size-4.5" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1.5">
              <h3 className="min-w-0 font-semibold break-all">
                {active ? (
                  <a href={domain.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 hover:underline">
                    {domain.hostname}
                    <ArrowUpRight className="size-4 shrink-0" aria-hidden />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : (
                  domain.hostname
                )}
              </h3>
              <DomainStatusBadge status={domain.status} />
            </div>
            <ul className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
              {showSite && (
                <li className="min-w-0">
                  Site{" "}
                  <Link to={`/dashboard/sites/${encodeURIComponent(domain.site_id)}`} className="font-medium text-foreground hover:underline">
                    {domain.site_name}
                  </Link>
                </li>
              )}
              <li className="flex items-center gap-1.5">
                <Clock className="size-3.5" aria-hidden />
                <span>
                  Added{" "}
                  <time dateTime={domain.created_at} title={created.toLocaleString()}>
                    {timeAgo(created, now)}
                  </time>
                </span>
              </li>
              {tries && <li>{tries}</li>}
            </ul>
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {!active && (
            <Button variant="outline" size="sm" onClick={() => check.mutate(domain)} disabled={check.isPending || remove.isPending}>
              {check.isPending ? <Spinner className="size-4 text-current" label="Checking" /> : <RotateCw aria-hidden />}
              Check again
            </Button>
          )}
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            trigger={<DeleteButton label="Remove" item={domain.hostname} disabled={remove.isPending} />}
            title={`Remove ${domain.hostname}?`}
            titleClassName="break-all"
            description={`${domain.site_name} stops being served on this domain at once. You can add the domain again later; it is then checked from the start.`}
            confirmLabel="Remove domain"
            pendingLabel="Removing"
            destructive
            failureTitle={DOMAIN_TEXT.removeFailed}
            onConfirm={() => remove.mutateAsync(domain)}
          />
        </div>
      </div>

      {domain.status === "failed" && domain.error && (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive/20 bg-destructive/5 px-3 py-2 text-sm text-destructive"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            <span className="block font-medium">{domain.error}</span>
            <span className="block text-destructive/80">Check the records below, then choose Check again.</span>
          </span>
        </p>
      )}

      {active ? (
        <details className="group text-sm">
          <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground select-none hover:text-foreground">DNS records</summary>
          <div className="mt-3">
            <DnsRecords records={domain.records} />
          </div>
        </details>
      ) : (
        <div className="flex flex-col gap-2.5">
          <p className="text-sm text-muted-foreground">
            Create these records at your DNS provider. The TXT record proves the domain is yours.
            {isProvisioning(domain.status) &&
              ` ${PRODUCT_NAME} checks every ${DOMAIN_TRY_INTERVAL_MS / 1000} seconds, up to ${DOMAIN_MAX_TRIES} times.`}
          </p>
          <DnsRecords records={domain.records} />
        </div>
      )}
    </li>
  );
}
