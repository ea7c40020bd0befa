import { DropdownMenu as MenuPrimitive } from "radix-ui";
import { Check, ListFilter, X } from "lucide-react";
import { Button } from "../ui/Button";
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from "../ui/Menu";
import { cn } from "../../lib/cn";
import { LIST_STATUSES, LIST_STATUS_LABEL, type ListStatus } from "./siteList";

/** The list's Filter button: check statuses to keep; the count of each comes from the whole list. */
export function SiteFilterMenu({
  selected,
  counts,
  onChange,
}: {
  selected: ReadonlySet<ListStatus>;
  counts: Record<ListStatus, number>;
  onChange: (next: Set<ListStatus>) => void;
}) {
  const active = selected.size;
  function toggle(status: ListStatus, checked: boolean) {
    const next = new Set(selected);
    if (checked) next.add(status);
    else next.delete(status);
    onChange(next);
  }
  return (
    <Menu>
      <MenuTrigger asChild>
        <Button variant="outline" className={cn("h-10 gap-2 max-sm:px-3", active > 0 && "border-primary/40 bg-accent/60")}>
          <ListFilter aria-hidden />
          <span className="max-sm:sr-only">Filter</span>
          {active > 0 && (
            <span className="flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold text-primary-foreground">
              {active}
              <span className="sr-only"> {active === 1 ? "filter" : "filters"} applied</span>
            </span>
          )}
        </Button>
      </MenuTrigger>
      <MenuContent className="w-60">
        <MenuLabel className="text-xs font-medium text-muted-foreground">Status</MenuLabel>
        {LIST_STATUSES.map((status) => (
          <MenuPrimitive.CheckboxItem
            key={status}
            checked={selected.has(status)}
            onCheckedChange={(checked) => toggle(status, checked === true)}
            // Keep the menu open so several statuses can be checked in one go.
            onSelect={(event) => event.preventDefault()}
            className="flex cursor-pointer select-none items-center gap-2.5 rounded-md px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
          >
            <span
              className="flex size-4 items-center justify-center rounded-sm border border-input data-[state=checked]:border-primary data-[state=checked]:bg-primary"
              data-state={selected.has(status) ? "checked" : "unchecked"}
            >
              <MenuPrimitive.ItemIndicator>
                <Check className="size-3 text-primary-foreground" strokeWidth={3} aria-hidden />
              </MenuPrimitive.ItemIndicator>
            </span>
            <span className="flex-1">{LIST_STATUS_LABEL[status]}</span>
            <span className="text-xs tabular-nums text-muted-foreground">{counts[status]}</span>
          </MenuPrimitive.CheckboxItem>
        ))}
        {active > 0 && (
          <>
            <MenuSeparator />
            <MenuItem onSelect={() => onChange(new Set())}>
              <X aria-hidden />
              Clear filters
            </MenuItem>
          </>
        )}
      </MenuContent>
    </Menu>
  );
}
