import { Tabs as TabsPrimitive } from "radix-ui";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type ComponentProps } from "react";
import { cn } from "../../lib/cn";

export const Tabs = TabsPrimitive.Root;

/** Which ends of a sideways-scrolling row have more behind them. */
function useOverflowEnds() {
  const ref = useRef<HTMLDivElement>(null);
  const [ends, setEnds] = useState({ before: false, after: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // A pixel of slack: zoomed pages report fractional widths.
    const before = el.scrollLeft > 1;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEnds((old) => (old.before === before && old.after === after ? old : { before, after }));
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // A deep link to a tab off to the right (?tab=settings on a phone) starts with that tab in view.
    el.querySelector<HTMLElement>("[data-state=active]")?.scrollIntoView({ block: "nearest", inline: "nearest" });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, [measure]);
  const scrollBy = (direction: 1 | -1) => ref.current?.scrollBy({ left: direction * ref.current.clientWidth * 0.7, behavior: "smooth" });
  return { ref, ends, scrollBy };
}

/** One end's hint: a fade over the cut-off tab and a button that scrolls it into view. */
function MoreTabs({ side, onClick }: { side: "before" | "after"; onClick: () => void }) {
  const Icon = side === "before" ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      tabIndex={-1}
      aria-label={side === "before" ? "Show earlier tabs" : "Show more tabs"}
      onClick={onClick}
      className={cn(
        "absolute inset-y-0 z-10 flex w-10 cursor-pointer items-center text-muted-foreground hover:text-foreground",
        side === "before" ? "left-0 justify-start bg-gradient-to-r" : "right-0 justify-end bg-gradient-to-l",
        "from-background from-45% to-transparent",
      )}
    >
      <Icon aria-hidden className="size-4" />
    </button>
  );
}

/**
 * An underline tab bar. On narrow screens it scrolls sideways instead of wrapping, and an arrow
 * over a fade at either end shows (and scrolls to) the tabs that do not fit.
 */
export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  const { ref, ends, scrollBy } = useOverflowEnds();
  return (
    <div className="relative">
      <TabsPrimitive.List
        ref={ref}
        className={cn("flex w-full items-center gap-1 overflow-x-auto border-b [scrollbar-width:none] [&::-webkit-scrollbar]:hidden", className)}
        {...props}
      />
      {ends.before ? <MoreTabs side="before" onClick={() => scrollBy(-1)} /> : null}
      {ends.after ? <MoreTabs side="after" onClick={() => scrollBy(1)} /> : null}
    </div>
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "relative -mb-px inline-flex h-10 shrink-0 cursor-pointer items-center gap-2 whitespace-nowrap border-b-2 border-transparent px-2.5 text-sm sm:px-3 font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:border-primary data-[state=active]:text-foreground [&_svg]:size-4 [&_svg]:shrink-0",
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn("outline-none", className)} {...props} />;
}
