import type { ReactNode } from "react";
import { cn } from "../../lib/cn";
import { Backdrop } from "./Backdrop";
import { Container } from "./Section";

/** The title band that opens the contact, docs and legal pages, under the fixed nav bar. */
export function PageHeader({ eyebrow, title, children, className }: { eyebrow: string; title: ReactNode; children?: ReactNode; className?: string }) {
  return (
    <header className={cn("relative isolate pb-12 pt-32 sm:pb-16 sm:pt-40", className)}>
      <Backdrop />
      <Container className="text-center">
        <p className="text-sm font-semibold uppercase tracking-wider text-primary">{eyebrow}</p>
        <h1 className="mt-3 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {children ? <div className="mx-auto mt-5 max-w-2xl text-base text-pretty text-muted-foreground sm:text-lg">{children}</div> : null}
      </Container>
    </header>
  );
}
