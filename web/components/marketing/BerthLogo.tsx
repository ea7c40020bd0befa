import { PRODUCT_NAME } from "../../../common/texts";
import { cn } from "../../lib/cn";

/** The mark: a hull resting at a quay, drawn inline so the page needs no image request. */
export function BerthMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn("size-8", className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M8 17.5h16l-2.6 5.2a2 2 0 0 1-1.8 1.1h-7.2a2 2 0 0 1-1.8-1.1z" fill="white" />
      <path d="M16 7.5v8.2M16 8.2l5.2 6.3H16" stroke="white" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" fill="none" />
    </svg>
  );
}

export function BerthLogo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5 text-lg font-semibold tracking-tight", className)}>
      <BerthMark />
      {PRODUCT_NAME}
    </span>
  );
}
