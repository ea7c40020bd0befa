// The help page's search over the docs: results as you type, from a small index built into the
// page (docsIndex.ts), no request. A combobox: ↑/↓ move through the results, Enter opens one,
// Escape clears the box.
import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { ArrowRight, BookOpen, Search } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { cn } from "../../lib/cn";
import { searchDocs } from "./docsIndex";

export function DocsSearch() {
  const id = useId();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const results = useMemo(() => searchDocs(query), [query]);
  const searching = query.trim() !== "";
  const optionId = (index: number) => `${id}-option-${index}`;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && results.length > 0) {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + results.length) % results.length);
    } else if (event.key === "Enter" && results[active]) {
      event.preventDefault();
      void navigate(results[active].href);
    } else if (event.key === "Escape" && query) {
      event.preventDefault();
      setQuery("");
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <input
          type="search"
          role="combobox"
          aria-label="Search the docs"
          aria-expanded={searching}
          aria-controls={`${id}-results`}
          aria-autocomplete="list"
          aria-activedescendant={searching && results[active] ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          placeholder="Search the docs: custom domain, redirects, CLI…"
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-12 w-full rounded-lg border border-input bg-background pr-4 pl-11 text-base shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring sm:text-sm"
        />
      </div>
      {searching && (
        <div aria-live="polite">
          {results.length === 0 ? (
            <p className="rounded-lg border border-dashed px-4 py-5 text-sm text-muted-foreground">
              Nothing in the docs matches “{query.trim()}”. Try another word, browse the{" "}
              <Link to="/docs" className="font-medium text-primary hover:underline">
                docs
              </Link>
              , or write to support below.
            </p>
          ) : (
            <ul id={`${id}-results`} role="listbox" aria-label="Matching docs" className="divide-y overflow-hidden rounded-lg border">
              {results.map((hit, index) => (
                <li key={`${hit.section}-${hit.title}`} id={optionId(index)} role="option" aria-selected={index === active}>
                  <Link
                    to={hit.href}
                    tabIndex={-1}
                    onMouseEnter={() => setActive(index)}
                    className={cn("flex items-center gap-3 px-4 py-3 text-sm transition-colors hover:bg-accent", index === active && "bg-accent")}
                  >
                    <BookOpen className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium">{hit.title}</span>
                      {hit.heading && <span className="block truncate text-xs text-muted-foreground">{hit.sectionTitle}</span>}
                    </span>
                    <ArrowRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
