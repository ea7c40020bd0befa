import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn";

export function Container({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("mx-auto w-full max-w-6xl px-5 sm:px-6 lg:px-8", className)} {...props} />;
}

/** The eyebrow, title and lead that open each landing section. */
export function SectionHeading({
  eyebrow,
  title,
  children,
  id,
  className,
}: {
  eyebrow: string;
  title: string;
  children?: ReactNode;
  id?: string;
  className?: string;
}) {
  return (
    <div className={cn("mx-auto max-w-2xl text-center", className)}>
      <p className="text-sm font-semibold uppercase tracking-wider text-primary">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {children ? <p className="mt-4 text-lg text-pretty text-muted-foreground">{children}</p> : null}
    </div>
  );
}
