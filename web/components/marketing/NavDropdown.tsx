import { ChevronDown } from "lucide-react";
import { Link } from "react-router";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "../ui/DropdownMenu";
import type { MarketingLink } from "./links";

export const navItemClass =
  "inline-flex h-9 items-center gap-1 rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground hover:bg-foreground/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=open]:text-foreground data-[state=open]:bg-foreground/5 aria-[current=page]:text-foreground";

/** A desktop menu whose entries are links, each with an icon and a one-line description. */
export function NavDropdown({ label, links }: { label: string; links: MarketingLink[] }) {
  return (
    // Not modal: a modal menu locks page scroll and hides the scrollbar, which shifts the layout.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger className={`${navItemClass} cursor-pointer`}>
        {label}
        <ChevronDown aria-hidden className="size-3.5 transition-transform duration-200 [[data-state=open]>&]:rotate-180" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-80">
        {links.map(({ label: itemLabel, to, description, icon: Icon }) => (
          <DropdownMenuItem key={itemLabel} asChild className="items-start">
            <Link to={to}>
              {Icon ? (
                <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md border bg-background text-primary">
                  <Icon aria-hidden />
                </span>
              ) : null}
              <span className="flex flex-col">
                <span className="font-medium text-foreground">{itemLabel}</span>
                {description ? <span className="text-xs text-muted-foreground">{description}</span> : null}
              </span>
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
