import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}

/**
 * A part of the page that is still loading, as assistive technology should hear it: busy, and
 * named for what is coming ("Loading users"). The placeholders inside are only drawn.
 */
export function Loading({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div aria-busy="true" aria-label={label} className={className}>
      {children}
    </div>
  );
}

/**
 * One row of a list while it loads: the item's icon or avatar (`media`: its size and shape), its
 * two lines of text, and whatever else the real row has at its end (`children`).
 */
export function SkeletonRow({
  media = "size-10 rounded-lg",
  lines = ["w-40", "w-56"],
  className,
  children,
}: {
  media?: string;
  /** The widths of the two lines. */
  lines?: [string, string];
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={cn("flex items-center gap-3", className)}>
      <Skeleton className={cn("shrink-0", media)} />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <Skeleton className={cn("h-4 max-w-full", lines[0])} />
        <Skeleton className={cn("h-3.5 max-w-full", lines[1])} />
      </div>
      {children}
    </div>
  );
}
