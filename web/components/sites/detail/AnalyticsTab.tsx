// The spec's 'Analytics Coming Soon'. Real analytics arrive in their own issue; until then the
// page says plainly that nothing is counted, rather than drawing a chart of invented numbers.
import { BarChart3, Eye, Gauge, Users } from "lucide-react";
import { Card } from "../../ui/card";

const METRICS = [
  { Icon: Eye, label: "Page views" },
  { Icon: Users, label: "Unique visitors" },
  { Icon: Gauge, label: "Bandwidth" },
];

export function AnalyticsTab() {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center sm:py-16">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-primary/10 text-primary">
        <BarChart3 className="size-7" aria-hidden />
      </span>
      <h2 className="mt-4 text-lg font-semibold tracking-tight">
        Analytics Coming Soon
      </h2>
      <p className="mt-1.5 max-w-md text-sm leading-relaxed text-muted-foreground">
        Visits to this site are not counted yet. When analytics arrive they will
        be privacy-friendly: no cookies, and no IP addresses kept.
      </p>
      <ul
        className="mt-6 flex flex-wrap justify-center gap-2"
        aria-label="What will be measured"
      >
        {METRICS.map(({ Icon, label }) => (
          <li
            key={label}
            className="inline-flex items-center gap-1.5 rounded-full border bg-muted/40 px-3 py-1 text-xs font-medium text-muted-foreground"
          >
            <Icon className="size-3.5" aria-hidden />
            {label}
          </li>
        ))}
      </ul>
    </Card>
  );
}
