// A list of custom domains with its loading, empty and failed faces; the page and the site card
// both show one.
import { AlertTriangle, Globe, RotateCw } from "lucide-react";
import { DOMAIN_UI_TEXT, type DomainResponse } from "../../../common/domains";
import { useNow } from "../../lib/useNow";
import { Button } from "../ui/button";
import { Placeholder } from "../ui/placeholder";
import { Skeleton } from "../ui/skeleton";
import { DomainItem } from "./DomainItem";

export function DomainList({
  domains,
  failed,
  onRetry,
  showSite,
  emptyBody,
  compact = false,
}: {
  domains: DomainResponse[] | undefined;
  failed: boolean;
  onRetry: () => void;
  showSite: boolean;
  emptyBody: string;
  /** Inside a card: a line of text for the empty list, not a placeholder panel. */
  compact?: boolean;
}) {
  const now = useNow(30_000);
  if (!domains) {
    if (failed)
      return (
        <Placeholder
          tone="error"
          icon={<AlertTriangle className="size-6" aria-hidden />}
          title="Failed to load domains"
          body="Please try again later."
        >
          <Button variant="outline" onClick={onRetry}>
            <RotateCw aria-hidden />
            Try again
          </Button>
        </Placeholder>
      );
    return (
      <div
        className="flex flex-col gap-4"
        aria-busy="true"
        aria-label="Loading domains"
      >
        {[0, 1].map((row) => (
          <div key={row} className="rounded-xl border bg-card p-5 shadow-xs">
            <div className="flex items-start gap-3.5">
              <Skeleton className="size-9 rounded-full" />
              <div className="flex-1 space-y-2 pt-0.5">
                <Skeleton className="h-4 w-48" />
                <Skeleton className="h-3.5 w-32" />
              </div>
            </div>
            <Skeleton className="mt-5 h-24 w-full" />
          </div>
        ))}
      </div>
    );
  }
  if (domains.length === 0 && compact)
    return (
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground">
          {DOMAIN_UI_TEXT.noDomains}.
        </span>{" "}
        {emptyBody}
      </p>
    );
  if (domains.length === 0)
    return (
      <Placeholder
        icon={<Globe className="size-6" aria-hidden />}
        title={DOMAIN_UI_TEXT.noDomains}
        body={emptyBody}
      />
    );
  return (
    <ul className="flex flex-col gap-4" aria-label="Custom domains">
      {domains.map((domain) => (
        <DomainItem
          key={domain.id}
          domain={domain}
          showSite={showSite}
          now={now}
        />
      ))}
    </ul>
  );
}
