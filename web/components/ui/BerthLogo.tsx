import { Link } from "react-router";
import { PRODUCT_NAME } from "../../../common/texts";
import { cn } from "../../lib/cn";

/** The anchor mark, the favicon's too: one logo on every page. Drawn inline so it needs no request. */
export function BerthMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn("size-8 shrink-0", className)} aria-hidden focusable="false">
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M8 20.5c2.6 2 5.3 3 8 3s5.4-1 8-3M16 6v14M11 11h10"
        fill="none"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Mark and wordmark, linking to `to` (the landing page unless told otherwise). */
export function BerthLogo({
  to = "/",
  className,
  showWordmark = true,
  inverted = false,
}: {
  to?: string;
  className?: string;
  showWordmark?: boolean;
  inverted?: boolean;
}) {
  return (
    <Link
      to={to}
      className={cn("inline-flex items-center gap-2.5 rounded-md font-semibold tracking-tight", className)}
      aria-label={to === "/" ? `${PRODUCT_NAME} home` : PRODUCT_NAME}
    >
      <BerthMark />
      {showWordmark && <span className={cn("text-lg", inverted ? "text-white" : "text-foreground")}>{PRODUCT_NAME}</span>}
    </Link>
  );
}
