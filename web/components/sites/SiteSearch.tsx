// The header's search: a combobox over the user's sites (name, subdomain, custom domain). Picking
// a site opens it; Enter without a pick opens the site list filtered by the query (?q=).
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useNavigate } from "react-router";
import { CornerDownLeft, Search } from "lucide-react";
import { cn } from "../../lib/cn";
import { useSites } from "../../lib/queries";
import { Spinner } from "../ui/Spinner";
import { displayUrl, filterSites } from "./siteList";
import { SiteAvatar } from "./SiteAvatar";

const MAX_RESULTS = 5;
const NO_STATUSES = new Set<never>();

export function SiteSearch({
  autoFocus = false,
  onDone,
  shortcut = false,
  className,
}: {
  autoFocus?: boolean;
  /** Called after navigating, e.g. to close the phone's search panel. */
  onDone?: () => void;
  /** Listen for ⌘K / Ctrl+K to focus the box. */
  shortcut?: boolean;
  className?: string;
}) {
  const id = useId();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(autoFocus);
  const [active, setActive] = useState(-1);
  // The list is only requested once the box is used: most page views never search.
  const sites = useSites({ enabled: used });

  const results = useMemo(() => (query.trim() ? filterSites(sites.data ?? [], query, NO_STATUSES).slice(0, MAX_RESULTS) : []), [sites.data, query]);
  const showPanel = open && query.trim() !== "";
  // Options: the matching sites, then "all results" last.
  const optionCount = results.length + 1;

  useEffect(() => {
    if (!shortcut) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shortcut]);

  function finish(to: string) {
    setOpen(false);
    setQuery("");
    setActive(-1);
    input.current?.blur();
    void navigate(to);
    onDone?.();
  }

  function choose(index: number) {
    const site = results[index];
    if (site) finish(`/dashboard/sites/${site.id}`);
    else finish(`/dashboard/sites?q=${encodeURIComponent(query.trim())}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!showPanel) return;
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + optionCount) % optionCount);
    } else if (event.key === "Enter") {
      if (!query.trim()) return;
      event.preventDefault();
      choose(active >= 0 ? active : results.length);
    } else if (event.key === "Escape") {
      if (query) setQuery("");
      else input.current?.blur();
      setOpen(false);
    }
  }

  const optionId = (index: number) => `${id}-option-${index}`;
  const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

  return (
    <div className={cn("relative", className)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Search sites"
        aria-expanded={showPanel}
        aria-controls={`${id}-listbox`}
        aria-autocomplete="list"
        aria-activedescendant={showPanel && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        value={query}
        placeholder="Search sites…"
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => {
          setUsed(true);
          setOpen(true);
        }}
        // Delayed so a click on an option lands before the panel disappears.
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={onKeyDown}
        className="h-9 w-full rounded-md border border-input bg-muted/40 pr-14 pl-9 text-sm shadow-xs transition-colors placeholder:text-muted-foreground hover:bg-muted/70 focus:bg-background focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
      />
      {shortcut && !query && (
        <kbd className="pointer-events-none absolute top-1/2 right-2 hidden -translate-y-1/2 rounded border bg-background px-1.5 py-0.5 font-sans text-[10px] font-medium text-muted-foreground lg:block">
          {isMac ? "⌘K" : "Ctrl K"}
        </kbd>
      )}
      {showPanel && (
        <div className="absolute top-full right-0 left-0 z-50 mt-2 min-w-72 overflow-hidden rounded-xl border bg-popover text-popover-foreground shadow-lg">
          <ul id={`${id}-listbox`} role="listbox" aria-label="Matching sites" className="p-1">
            {sites.isPending ? (
              <li className="flex items-center gap-2 px-3 py-3 text-sm text-muted-foreground" role="presentation">
                <Spinner className="size-4" label="Loading sites" />
                Loading sites…
              </li>
            ) : results.length === 0 ? (
              <li className="px-3 py-3 text-sm text-muted-foreground" role="presentation">
                No site matches “{query.trim()}”.
              </li>
            ) : (
              results.map((site, index) => (
                <li
                  key={site.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={active === index}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(index)}
                  onMouseEnter={() => setActive(index)}
                  className={cn(
                    "flex cursor-pointer items-center gap-3 rounded-md px-2.5 py-2",
                    active === index && "bg-accent text-accent-foreground",
                  )}
                >
                  <SiteAvatar name={site.name} seed={site.subdomain} className="size-7 rounded-md text-xs" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{site.name}</span>
                    <span className="block truncate text-xs text-muted-foreground">{displayUrl(site)}</span>
                  </span>
                </li>
              ))
            )}
            <li role="presentation" className="-mx-1 my-1 h-px bg-border" />
            <li
              id={optionId(results.length)}
              role="option"
              aria-selected={active === results.length}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(results.length)}
              onMouseEnter={() => setActive(results.length)}
              className={cn(
                "flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-2 text-sm text-muted-foreground",
                active === results.length && "bg-accent text-accent-foreground",
              )}
            >
              <Search className="size-4 shrink-0" aria-hidden />
              <span className="min-w-0 flex-1 truncate">
                All sites matching “<span className="font-medium text-foreground">{query.trim()}</span>”
              </span>
              <CornerDownLeft className="size-3.5 shrink-0 opacity-60" aria-hidden />
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
