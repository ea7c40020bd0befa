import { Check } from "lucide-react";
import { cn } from "../../lib/cn";

export const WIZARD_STEPS = ["Basic Information", "Upload Content", "Deploy"] as const;

/**
 * The wizard's three stages. The third, Deploy, lights up while the upload is being published;
 * once it is live all three are done and the wizard shows the site with its publish check.
 */
export function StepIndicator({ current }: { current: number }) {
  return (
    <nav aria-label="Progress">
      <ol className="flex items-center">
        {WIZARD_STEPS.map((label, index) => {
          const done = index < current;
          const active = index === current;
          return (
            <li key={label} className={cn("flex items-center", index < WIZARD_STEPS.length - 1 && "flex-1")}>
              <div className="flex items-center gap-2.5" aria-current={active ? "step" : undefined}>
                <span
                  className={cn(
                    "flex size-8 shrink-0 items-center justify-center rounded-full border text-sm font-semibold transition-colors",
                    done && "border-primary bg-primary text-primary-foreground",
                    active && "border-primary bg-background text-primary ring-4 ring-primary/15",
                    !done && !active && "bg-background text-muted-foreground",
                  )}
                >
                  {done ? <Check className="size-4" strokeWidth={3} aria-hidden /> : index + 1}
                </span>
                <span className="flex flex-col">
                  <span className="text-[11px] font-medium uppercase tracking-wider text-muted-foreground max-sm:sr-only">Step {index + 1}</span>
                  <span className={cn("text-sm font-medium whitespace-nowrap max-sm:sr-only", active ? "text-foreground" : "text-muted-foreground")}>
                    {label}
                    <span className="sr-only">{done ? " (completed)" : active ? " (current)" : ""}</span>
                  </span>
                </span>
              </div>
              {index < WIZARD_STEPS.length - 1 && <span className={cn("mx-3 h-px flex-1 sm:mx-4", done ? "bg-primary" : "bg-border")} aria-hidden />}
            </li>
          );
        })}
      </ol>
      <p className="mt-3 text-sm sm:hidden" aria-hidden>
        <span className="text-muted-foreground">
          Step {Math.min(current, WIZARD_STEPS.length - 1) + 1} of {WIZARD_STEPS.length} ·{" "}
        </span>
        <span className="font-medium">{WIZARD_STEPS[Math.min(current, WIZARD_STEPS.length - 1)]}</span>
      </p>
    </nav>
  );
}
