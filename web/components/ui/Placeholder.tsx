// The empty and error states of dashboard lists: an icon in a circle, a title, a line of text
// and optional actions, in a dashed card.
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

export function Placeholder({
  icon,
  title,
  body,
  children,
  tone = "default",
  heading: Heading = "h2",
  role,
  className,
}: {
  icon: ReactNode;
  title: string;
  body?: string | undefined;
  children?: ReactNode;
  tone?: "default" | "error";
  /** The title's level where it sits: h1 when it is the page's only heading. */
  heading?: "h1" | "h2" | "h3";
  /** "alert" for a failure, so screen readers say it at once. */
  role?: "alert";
  className?: string;
}) {
  return (
    <div role={role} className={cn("flex flex-col items-center rounded-xl border border-dashed bg-card px-6 py-16 text-center", className)}>
      <span
        className={
          tone === "error"
            ? "flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive"
            : "flex size-12 items-center justify-center rounded-full bg-accent text-primary"
        }
      >
        {icon}
      </span>
      <Heading className="mt-4 text-lg font-semibold tracking-tight">{title}</Heading>
      {body && <p className="mt-1.5 max-w-sm text-sm leading-relaxed text-muted-foreground">{body}</p>}
      {children && <div className="mt-6 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}
