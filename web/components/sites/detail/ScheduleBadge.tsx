import { useEffect, useState } from "react";
import { CalendarClock } from "lucide-react";
import type { SiteResponse } from "../../../../common/sites";
import { cn } from "../../../lib/cn";
import { scheduleBadge, type ScheduleBadge as Badge } from "./schedule";

const TONE: Record<NonNullable<Badge>["tone"], string> = {
  expired: "border-destructive/25 bg-destructive/10 text-destructive",
  scheduled: "border-primary/25 bg-primary/10 text-primary",
  expires: "border-warning/30 bg-warning/10 text-amber-700",
};

/** "Expires in 3 days", "Expired", "Goes live in 2 hours" beside the site's status; kept current. */
export function ScheduleBadge({ site }: { site: Pick<SiteResponse, "expires_at" | "publish_at"> }) {
  const [now, setNow] = useState(() => Date.now());
  const scheduled = site.expires_at !== null || site.publish_at !== null;
  useEffect(() => {
    if (!scheduled) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [scheduled]);
  const badge = scheduleBadge(site, now);
  if (!badge) return null;
  return (
    <span
      title={badge.title}
      className={cn("inline-flex h-6 shrink-0 items-center gap-1.5 rounded-full border px-2 text-xs font-medium whitespace-nowrap", TONE[badge.tone])}
    >
      <CalendarClock className="size-3.5" aria-hidden />
      {badge.label}
    </span>
  );
}
