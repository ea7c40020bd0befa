import type { SiteResponse } from "../../../common/sites";
import { cn } from "../../lib/cn";
import { LIST_STATUS_LABEL, listStatusOf, type ListStatus } from "./siteList";

const TONE: Record<ListStatus, { badge: string; dot: string }> = {
  active: {
    badge: "border-success/25 bg-success/10 text-success",
    dot: "bg-success",
  },
  not_deployed: {
    badge: "border-border bg-muted text-muted-foreground",
    dot: "bg-muted-foreground/60",
  },
  marked_for_deletion: {
    badge: "border-destructive/25 bg-destructive/10 text-destructive",
    dot: "bg-destructive",
  },
};

/** The list's status: Active, Not Deployed or Marked for deletion, as a dot and a word. */
export function SiteStatusBadge({ site, className }: { site: Pick<SiteResponse, "status" | "is_deleted">; className?: string }) {
  const status = listStatusOf(site);
  const tone = TONE[status];
  return (
    <span
      className={cn(
        "inline-flex h-6 shrink-0 items-center gap-1.5 rounded-full border px-2 text-xs font-medium whitespace-nowrap",
        tone.badge,
        className,
      )}
    >
      <span className={cn("size-1.5 rounded-full", tone.dot, status === "active" && "shadow-[0_0_0_3px] shadow-success/20")} aria-hidden />
      {LIST_STATUS_LABEL[status]}
    </span>
  );
}
