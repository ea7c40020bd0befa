// The add-webhook form's events: one checkbox per event, each with what it means, as a card that
// toggles on a click anywhere in it. The message under them says when none is ticked.
import { useId } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { WEBHOOK_EVENT_TEXT, WEBHOOK_EVENTS } from "../../../common/webhooks";

export function EventChoice({ field, error }: { field: UseFormRegisterReturn<"events">; error?: string | undefined }) {
  const id = useId();
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm leading-none font-medium">Events</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {WEBHOOK_EVENTS.map((event) => {
          const { label, description } = WEBHOOK_EVENT_TEXT[event];
          return (
            <label
              key={event}
              className="flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 transition-colors hover:bg-muted/50 has-checked:border-primary has-checked:bg-accent/60 has-focus-visible:outline-2 has-focus-visible:outline-offset-1 has-focus-visible:outline-ring"
            >
              <input
                type="checkbox"
                value={event}
                aria-labelledby={`${id}-${event}`}
                aria-describedby={`${id}-${event}-about`}
                className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
                {...field}
              />
              <span className="grid min-w-0 gap-0.5">
                <span id={`${id}-${event}`} className="text-sm font-medium">
                  {label}
                  <code className="block font-mono text-[11px] font-normal text-muted-foreground">{event}</code>
                </span>
                <span id={`${id}-${event}-about`} className="text-xs leading-relaxed text-muted-foreground">
                  {description}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
