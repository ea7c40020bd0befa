// The empty and error states of dashboard lists: an icon in a circle, a title, a line of text
// and optional actions, in a dashed card.
import type { ReactNode } from "react";

export function Placeholder({
  icon,
  title,
  body,
  children,
  tone = "default",
}: {
  icon: ReactNode;
  title: string;
  body: string;
  children?: ReactNode;
  tone?: "default" | "error";
}) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed bg-card px-6 py-16 text-center">
      <span
        className={
          tone === "error"
            ? "flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive"
            : "flex size-12 items-center justify-center rounded-full bg-accent text-primary"
        }
      >
        {icon}
      </span>
      <h2 className="mt-4 text-lg font-semibold tracking-tight">{title}</h2>
      <p className="mt-1.5 max-w-sm text-sm leading-relaxed text-muted-foreground">
        {body}
      </p>
      {children && (
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          {children}
        </div>
      )}
    </div>
  );
}
