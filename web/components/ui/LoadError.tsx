// Every "this could not be loaded" in the dashboard: what failed, the reason when there is one,
// and Try again, which spins while the new request runs. A whole list or page that failed gets
// the panel (the empty states' dashed card, in red); a part of a card gets one line.
import type { ReactNode } from "react";
import { AlertTriangle, RotateCw } from "lucide-react";
import { cn } from "../../lib/cn";
import { Button } from "./Button";
import { Placeholder } from "./Placeholder";

export function LoadError({
  title,
  message,
  onRetry,
  retrying = false,
  inline = false,
  heading,
  className,
  children,
}: {
  /** What could not be loaded, in the product's exact wording where it has one ("Failed to load files"). */
  title: string;
  /** Why, when known: usually the server's message. */
  message?: string | undefined;
  onRetry: () => void;
  /** The retry is under way: the button waits, its icon turns. */
  retrying?: boolean;
  /** One line inside a card, instead of a panel of its own. */
  inline?: boolean;
  /** The panel's title level (h2 unless told). */
  heading?: "h1" | "h2" | "h3";
  className?: string;
  /** Other ways out, beside Try again (a link back, say). */
  children?: ReactNode;
}) {
  const retry = (
    <Button
      type="button"
      variant="outline"
      size={inline ? "sm" : "default"}
      onClick={onRetry}
      disabled={retrying}
      className={inline ? "shrink-0" : undefined}
    >
      <RotateCw className={retrying ? "animate-spin" : undefined} aria-hidden />
      Try again
    </Button>
  );

  if (inline) {
    return (
      <div role="alert" className={cn("flex flex-wrap items-center justify-between gap-3 text-sm", className)}>
        <p className="flex min-w-0 items-start gap-2">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          <span className="min-w-0">
            <span className="block text-destructive">{title}</span>
            {message && <span className="mt-0.5 block text-muted-foreground">{message}</span>}
          </span>
        </p>
        {retry}
      </div>
    );
  }
  return (
    <Placeholder
      role="alert"
      tone="error"
      icon={<AlertTriangle className="size-6" aria-hidden />}
      title={title}
      body={message}
      heading={heading}
      className={className}
    >
      {children}
      {retry}
    </Placeholder>
  );
}
