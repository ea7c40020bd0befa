// The period the Analytics tab shows: a segmented control that behaves as a radio group (one tab
// stop, the arrow keys move and select).
import { useRef, type KeyboardEvent } from "react";
import { ANALYTICS_RANGE_LABELS, ANALYTICS_RANGES, type AnalyticsRange } from "../../../common/analytics";
import { cn } from "../../lib/cn";

export function RangePicker({ value, onChange }: { value: AnalyticsRange; onChange: (range: AnalyticsRange) => void }) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = ANALYTICS_RANGES.length - 1;
    const target =
      event.key === "ArrowRight" || event.key === "ArrowDown"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft" || event.key === "ArrowUp"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    onChange(ANALYTICS_RANGES[target]!);
    buttons.current[target]?.focus();
  };

  return (
    <div role="radiogroup" aria-label="Time range" className="grid w-full grid-cols-4 rounded-lg border bg-muted/60 p-0.5 sm:inline-grid sm:w-auto">
      {ANALYTICS_RANGES.map((range, index) => {
        const selected = range === value;
        return (
          <button
            key={range}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(range)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={cn(
              "h-8 cursor-pointer whitespace-nowrap rounded-md px-2 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 sm:px-3 sm:text-sm",
              selected ? "bg-background text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
            )}
          >
            {ANALYTICS_RANGE_LABELS[range]}
          </button>
        );
      })}
    </div>
  );
}
