// A list of custom domains with its loading, empty and failed faces; the page and the site card
// both show one.
import { Globe } from "lucide-react";
import { DOMAIN_UI_TEXT, type DomainResponse } from "../../../common/domains";
import { useNow } from "../../lib/useNow";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { Loading, Skeleton, SkeletonRow } from "../ui/Skeleton";
import { DomainItem } from "./DomainItem";

export function DomainList({
  domains,
  failed,
  onRetry,
  retrying,
  showSite,
  emptyBody,
  compact = false,
}: {
  domains: DomainResponse[] | undefined;
  failed: boolean;
  onRetry: () => void;
  retrying: boolean;
  showSite: boolean;
  emptyBody: string;
  /** Inside a card: a line of text for the empty list, not a placeholder panel. */
  compact?: boolean;
}) {
  const now = useNow(30_000);
  if (!domains) {
    if (failed)
      return <LoadError title="Failed to load domains" message="Please try again later." onRetry={onRetry} retrying={retrying} inline={compact} />;
    return (
      <Loading label="Loading domains" className="flex flex-col gap-4">
        {[0, 1].map((row) => (
          <div key={row} className="rounded-xl border bg-card p-5 shadow-xs">
            <SkeletonRow media="size-9 rounded-full" lines={["w-48", "w-32"]} className="gap-3.5" />
            <Skeleton className="mt-5 h-24 w-full" />
          </div>
        ))}
      </Loading>
    );
  }
  if (domains.length === 0 && compact)
    return (
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground">{DOMAIN_UI_TEXT.noDomains}.</span> {emptyBody}
      </p>
    );
  if (domains.length === 0) return <Placeholder icon={<Globe className="size-6" aria-hidden />} title={DOMAIN_UI_TEXT.noDomains} body={emptyBody} />;
  return (
    <ul className="flex flex-col gap-4" aria-label="Custom domains">
      {domains.map((domain) => (
        <DomainItem key={domain.id} domain={domain} showSite={showSite} now={now} />
      ))}
    </ul>
  );
}
