import { Fragment } from "react";
import { ChevronRight, Home } from "lucide-react";
import { cn } from "../../../lib/cn";
import { breadcrumbsFromPath } from "./paths";

/** Home › a › b: every crumb but the current folder opens its folder. */
export function FolderBreadcrumb({ path, onOpen }: { path: string | null; onOpen: (path: string | null) => void }) {
  const crumbs = breadcrumbsFromPath(path);
  return (
    <nav aria-label="Folder" className="min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-0.5 text-sm">
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1;
          return (
            <Fragment key={crumb.path ?? ""}>
              {index > 0 && (
                <li aria-hidden className="text-muted-foreground/60">
                  <ChevronRight className="size-4" />
                </li>
              )}
              <li className="min-w-0">
                <button
                  type="button"
                  onClick={() => onOpen(crumb.path)}
                  aria-current={current ? "location" : undefined}
                  className={cn(
                    "inline-flex max-w-48 cursor-pointer items-center gap-1.5 truncate rounded-md px-1.5 py-1 transition-colors hover:bg-muted hover:text-foreground",
                    current ? "font-medium text-foreground" : "text-muted-foreground",
                  )}
                >
                  {index === 0 && <Home className="size-4 shrink-0" aria-hidden />}
                  <span className="truncate">{crumb.label}</span>
                </button>
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
