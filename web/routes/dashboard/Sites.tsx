// /dashboard/sites: every site of the user, newest first, with search (?q=) and the status
// filter (?status=) kept in the address so a filtered list can be bookmarked or shared.
import { useEffect, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Plus, Search, X } from "lucide-react";
import { SITE_TEXT } from "../../../common/sites";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { SiteCard } from "../../components/sites/SiteCard";
import { SiteFilterMenu } from "../../components/sites/SiteFilterMenu";
import { EmptyState, ListSkeleton, NoResults } from "../../components/sites/SiteListStates";
import { LIST_STATUSES, filterSites, formatStatusParam, listStatusOf, parseStatusParam, type ListStatus } from "../../components/sites/siteList";
import { Button } from "../../components/ui/Button";
import { Input } from "../../components/ui/Input";
import { LoadError } from "../../components/ui/LoadError";
import { useSites } from "../../lib/queries";

export function Sites() {
  const sites = useSites();
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const statusParam = params.get("status");
  const statuses = useMemo(() => parseStatusParam(statusParam), [statusParam]);

  useEffect(() => {
    document.title = `${DASHBOARD_TEXT.nav.sites} · ${PRODUCT_NAME}`;
  }, []);

  useEffect(() => {
    if (sites.isError)
      toast.error(SITE_TEXT.errorFetchingSites, {
        description: sites.error.message,
      });
  }, [sites.isError, sites.error]);

  function update(next: { q?: string; status?: Set<ListStatus> }) {
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (next.q !== undefined) {
          if (next.q) out.set("q", next.q);
          else out.delete("q");
        }
        if (next.status !== undefined) {
          const value = formatStatusParam(next.status);
          if (value) out.set("status", value);
          else out.delete("status");
        }
        return out;
      },
      { replace: true },
    );
  }

  const all = useMemo(() => sites.data ?? [], [sites.data]);
  const visible = useMemo(() => filterSites(all, query, statuses), [all, query, statuses]);
  const counts = useMemo(() => {
    const result = Object.fromEntries(LIST_STATUSES.map((s) => [s, 0])) as Record<ListStatus, number>;
    for (const site of all) result[listStatusOf(site)] += 1;
    return result;
  }, [all]);
  const narrowed = query.trim() !== "" || statuses.size > 0;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{DASHBOARD_TEXT.nav.sites}</h1>
          <p className="mt-1.5 text-sm text-muted-foreground">Everything you've published, newest first.</p>
        </div>
        <Button asChild>
          <Link to="/dashboard/sites/new">
            <Plus aria-hidden />
            New Site
          </Link>
        </Button>
      </div>

      {sites.isPending ? (
        <ListSkeleton />
      ) : sites.isError ? (
        <LoadError
          title={SITE_TEXT.errorFetchingSites}
          message="Your sites could not be loaded. Check your connection and try again."
          onRetry={() => void sites.refetch()}
          retrying={sites.isFetching}
        />
      ) : all.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <div className="flex gap-2 sm:gap-3">
            <div className="relative min-w-0 flex-1">
              <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
              <Input
                type="search"
                value={query}
                onChange={(event) => update({ q: event.target.value })}
                placeholder="Search by name or domain"
                aria-label="Filter sites by name, subdomain or domain"
                className="pl-9 [&::-webkit-search-cancel-button]:hidden"
              />
              {query && (
                <button
                  type="button"
                  onClick={() => update({ q: "" })}
                  className="absolute top-1/2 right-2 flex size-6 -translate-y-1/2 cursor-pointer items-center justify-center rounded-sm text-muted-foreground hover:text-foreground"
                  aria-label="Clear search"
                >
                  <X className="size-4" aria-hidden />
                </button>
              )}
            </div>
            <SiteFilterMenu selected={statuses} counts={counts} onChange={(status) => update({ status })} />
          </div>

          <p className="-mt-2 flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
            {narrowed ? (
              <>
                Showing {visible.length} of {all.length} {all.length === 1 ? "site" : "sites"}
                <button
                  type="button"
                  onClick={() => update({ q: "", status: new Set() })}
                  className="cursor-pointer font-medium text-primary hover:underline"
                >
                  Clear all
                </button>
              </>
            ) : (
              `${all.length} ${all.length === 1 ? "site" : "sites"}`
            )}
          </p>

          {visible.length === 0 ? (
            <NoResults query={query} onClear={() => update({ q: "", status: new Set() })} />
          ) : (
            <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              {visible.map((site) => (
                <li key={site.id} className="flex min-w-0">
                  <SiteCard site={site} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
