import { useState, type ReactNode } from "react";
import { Check, Copy, Link as LinkIcon } from "lucide-react";
import { Link } from "react-router";
import { cn } from "../../../lib/cn";

/** A documentation section: an anchored heading (with a link to itself) and its body. */
export function DocSection({ id, title, lead, children }: { id: string; title: string; lead?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 border-t pt-12 first:border-t-0 first:pt-0">
      <h2 id={`${id}-title`} className="group flex items-center gap-2 text-2xl font-semibold tracking-tight sm:text-3xl">
        {title}
        <Link to={`#${id}`} className="rounded text-muted-foreground opacity-0 transition-opacity group-hover:opacity-100 focus-visible:opacity-100">
          <LinkIcon aria-hidden className="size-4" />
          <span className="sr-only">Link to {title}</span>
        </Link>
      </h2>
      {lead ? <p className="mt-3 text-base text-muted-foreground sm:text-lg">{lead}</p> : null}
      <div className="mt-6 space-y-5 leading-7 text-foreground/85">{children}</div>
    </section>
  );
}

export function DocHeading({ children }: { children: ReactNode }) {
  return <h3 className="pt-4 text-lg font-semibold tracking-tight text-foreground">{children}</h3>;
}

export function InlineCode({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.875em] text-foreground">{children}</code>;
}

/** A shell snippet with a copy button. */
export function CodeBlock({ code, label }: { code: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); the text stays selectable.
    }
  };
  return (
    <div className="overflow-hidden rounded-xl border border-foreground/10 bg-foreground text-background shadow-sm">
      <div className="flex items-center justify-between border-b border-white/10 px-4 py-2 text-xs text-white/60">
        <span>{label ?? "Terminal"}</span>
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex cursor-pointer items-center gap-1.5 rounded px-1.5 py-1 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
        >
          {copied ? <Check aria-hidden className="size-3.5" /> : <Copy aria-hidden className="size-3.5" />}
          <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
        </button>
      </div>
      <pre className="overflow-x-auto px-4 py-4 font-mono text-sm leading-6">
        <code>{code}</code>
      </pre>
    </div>
  );
}

export function Callout({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("rounded-xl border border-primary/20 bg-accent/60 px-5 py-4 text-sm leading-6", className)}>
      <p className="font-semibold text-accent-foreground">{title}</p>
      <div className="mt-1 text-foreground/80">{children}</div>
    </div>
  );
}

/** Numbered steps with a rail between them. */
export function Steps({ steps }: { steps: { title: string; body: ReactNode }[] }) {
  return (
    <ol className="space-y-0">
      {steps.map((step, index) => (
        <li key={step.title} className="relative flex gap-4 pb-7 last:pb-0">
          {index < steps.length - 1 ? <span aria-hidden className="absolute bottom-0 left-4 top-9 w-px -translate-x-1/2 bg-border" /> : null}
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
            {index + 1}
          </span>
          <div className="min-w-0 pt-0.5">
            <p className="font-semibold text-foreground">{step.title}</p>
            <div className="mt-1 text-foreground/80">{step.body}</div>
          </div>
        </li>
      ))}
    </ol>
  );
}
