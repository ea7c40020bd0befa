import { useEffect, useState } from "react";
import { Link } from "react-router";
import { cn } from "../../../lib/cn";

export interface TocEntry {
  id: string;
  label: string;
}

/** The id of the section being read: the last one whose top has passed the upper third of the window. */
function useActiveSection(ids: string[]): string | undefined {
  const [active, setActive] = useState<string | undefined>(ids[0]);
  useEffect(() => {
    const update = () => {
      const line = window.innerHeight / 3;
      let current = ids[0];
      for (const id of ids) {
        const top = document.getElementById(id)?.getBoundingClientRect().top;
        if (top !== undefined && top <= line) current = id;
      }
      // At the very bottom the last sections may never reach the line; the last one is being read.
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) current = ids[ids.length - 1];
      setActive(current);
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, [ids]);
  return active;
}

export function DocsToc({ entries, className }: { entries: TocEntry[]; className?: string }) {
  const active = useActiveSection(entries.map((e) => e.id));
  return (
    <nav aria-label="On this page" className={className}>
      <p className="text-xs font-semibold uppercase tracking-wider text-muted-foreground">On this page</p>
      <ul className="mt-4 space-y-1 border-l text-sm">
        {entries.map(({ id, label }) => (
          <li key={id}>
            <Link
              to={`#${id}`}
              aria-current={active === id ? "location" : undefined}
              className={cn(
                "-ml-px block border-l-2 border-transparent py-1.5 pl-4 text-muted-foreground transition-colors hover:text-foreground",
                active === id && "border-primary font-medium text-primary hover:text-primary",
              )}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** On phones the contents become a row of chips above the text. */
export function DocsChips({ entries, className }: { entries: TocEntry[]; className?: string }) {
  return (
    <nav aria-label="Sections" className={className}>
      <ul className="flex flex-wrap gap-2">
        {entries.map(({ id, label }) => (
          <li key={id}>
            <Link
              to={`#${id}`}
              className="inline-flex rounded-full border bg-background px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:border-primary/40 hover:text-foreground"
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
