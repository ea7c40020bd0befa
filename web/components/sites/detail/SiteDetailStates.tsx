// The site page before it has a site: loading, missing, or failed.
import { Link } from "react-router";
import { ArrowLeft, SearchX } from "lucide-react";
import { SITE_TEXT } from "../../../../common/sites";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { LoadError } from "../../ui/LoadError";
import { Placeholder } from "../../ui/Placeholder";
import { Loading, Skeleton } from "../../ui/Skeleton";

// The page's background is itself muted, so placeholders on it need a darker tint than the
// default skeleton to be seen.
const ON_PAGE = "bg-muted-foreground/12";

export function SiteDetailSkeleton() {
  return (
    <Loading label="Loading site" className="flex flex-col gap-6">
      <Skeleton className={`h-5 w-28 ${ON_PAGE}`} />
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="flex items-start gap-4">
          <Skeleton className={`size-12 rounded-lg ${ON_PAGE}`} />
          <div className="flex flex-col gap-2 pt-1">
            <Skeleton className={`h-7 w-56 ${ON_PAGE}`} />
            <Skeleton className={`h-4 w-40 ${ON_PAGE}`} />
          </div>
        </div>
        <div className="flex gap-2">
          <Skeleton className={`h-10 w-28 ${ON_PAGE}`} />
          <Skeleton className={`h-10 w-24 ${ON_PAGE}`} />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-px overflow-hidden rounded-xl border bg-border sm:grid-cols-4">
        {["version", "files", "size", "created"].map((key) => (
          <div key={key} className="flex flex-col gap-2 bg-card px-4 py-3">
            <Skeleton className="h-3 w-16" />
            <Skeleton className="h-4 w-20" />
          </div>
        ))}
      </div>
      <div className="flex gap-4 border-b pb-3">
        {["w-16", "w-24", "w-20", "w-16"].map((width, index) => (
          <Skeleton key={index} className={`h-5 ${width} ${ON_PAGE}`} />
        ))}
      </div>
      <Card className="divide-y overflow-hidden">
        {["w-48", "w-36", "w-56", "w-40"].map((width, index) => (
          <div key={index} className="flex items-center gap-3 px-5 py-3.5">
            <Skeleton className="size-8" />
            <Skeleton className={`h-4 ${width}`} />
          </div>
        ))}
      </Card>
    </Loading>
  );
}

export function SiteNotFound() {
  return (
    <Placeholder
      heading="h1"
      icon={<SearchX className="size-6" aria-hidden />}
      title={SITE_TEXT.notFoundTitle}
      body={SITE_TEXT.notFoundBody}
      className="mx-auto mt-6 w-full max-w-lg"
    >
      <Button asChild>
        <Link to="/dashboard/sites">
          <ArrowLeft aria-hidden />
          {SITE_TEXT.backToSites}
        </Link>
      </Button>
    </Placeholder>
  );
}

export function SiteLoadFailed({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <LoadError
      heading="h1"
      title={SITE_TEXT.loadFailed}
      message={message}
      onRetry={onRetry}
      retrying={retrying}
      className="mx-auto mt-6 w-full max-w-lg"
    >
      <Button variant="outline" asChild>
        <Link to="/dashboard/sites">
          <ArrowLeft aria-hidden />
          {SITE_TEXT.backToSites}
        </Link>
      </Button>
    </LoadError>
  );
}
