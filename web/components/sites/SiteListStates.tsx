// The site list's other faces: loading skeletons, no sites yet, and no matches.
import { Link } from "react-router";
import { Globe, Plus, SearchX } from "lucide-react";
import { Button } from "../ui/Button";
import { Placeholder } from "../ui/Placeholder";
import { Loading, Skeleton, SkeletonRow } from "../ui/Skeleton";

export function ListSkeleton() {
  return (
    <Loading label="Loading sites" className="flex flex-col gap-6">
      <div className="flex gap-3">
        <Skeleton className="h-10 flex-1" />
        <Skeleton className="h-10 w-24" />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="rounded-xl border bg-card p-5 shadow-sm">
            <SkeletonRow lines={["w-2/3", "w-1/2"]} className="items-start">
              <Skeleton className="h-6 w-16 rounded-full" />
            </SkeletonRow>
            <div className="mt-8 flex items-center justify-between border-t pt-3">
              <Skeleton className="h-3.5 w-40" />
              <Skeleton className="h-7 w-16" />
            </div>
          </div>
        ))}
      </div>
    </Loading>
  );
}

export function EmptyState() {
  return (
    <Placeholder
      icon={<Globe className="size-6" aria-hidden />}
      title="No sites yet"
      body="Upload an HTML file, a PDF or a zipped static site and it goes live on its own address in seconds."
    >
      <Button asChild>
        <Link to="/dashboard/sites/new">
          <Plus aria-hidden />
          Create your first site
        </Link>
      </Button>
    </Placeholder>
  );
}

export function NoResults({ query, onClear }: { query: string; onClear: () => void }) {
  return (
    <Placeholder
      icon={<SearchX className="size-6" aria-hidden />}
      title="No matching sites"
      body={
        query.trim()
          ? `No site's name, subdomain or domain contains “${query.trim()}” with the filters applied.`
          : "No site has the status you filtered for."
      }
    >
      <Button variant="outline" onClick={onClear}>
        Clear search and filters
      </Button>
    </Placeholder>
  );
}
