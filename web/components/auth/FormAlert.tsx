import { AlertCircle, CheckCircle2, MailCheck } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

const STYLES = {
  error: {
    box: "border-destructive/30 bg-destructive/5 text-destructive",
    Icon: AlertCircle,
  },
  success: {
    box: "border-success/30 bg-success/10 text-[oklch(0.42_0.12_150)]",
    Icon: CheckCircle2,
  },
  info: {
    box: "border-primary/25 bg-accent text-accent-foreground",
    Icon: MailCheck,
  },
} as const;

/**
 * A message about the whole form. Errors use role="alert" so they are announced at once; success
 * and info notes use role="status", which waits for the reader to finish.
 */
export function FormAlert({
  kind,
  children,
  className,
  urgent = kind === "error",
}: {
  kind: keyof typeof STYLES;
  children: ReactNode;
  className?: string;
  /** Announce at once (role="alert"); errors are urgent by default. */
  urgent?: boolean;
}) {
  const { box, Icon } = STYLES[kind];
  return (
    <div
      role={urgent ? "alert" : "status"}
      className={cn("flex items-start gap-2.5 rounded-lg border px-3.5 py-3 text-sm leading-snug", box, className)}
    >
      <Icon className="mt-px size-4 shrink-0" aria-hidden />
      <div className="min-w-0">{children}</div>
    </div>
  );
}
