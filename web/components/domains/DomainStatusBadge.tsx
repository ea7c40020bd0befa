import { Loader2 } from "lucide-react";
import { DOMAIN_STATUS_LABELS, type DomainStatus } from "../../../common/domains";
import { cn } from "../../lib/cn";
import { DOMAIN_TONE, type DomainTone } from "./domains";

const TONE: Record<DomainTone, { badge: string; dot: string }> = {
  muted: {
    badge: "border-border bg-muted text-muted-foreground",
    dot: "bg-muted-foreground/60",
  },
  progress: { badge: "border-primary/25 bg-primary/10 text-primary", dot: "" },
  success: {
    badge: "border-success/25 bg-success/10 text-success",
    dot: "bg-success shadow-[0_0_0_3px] shadow-success/20",
  },
  failed: {
    badge: "border-destructive/25 bg-destructive/10 text-destructive",
    dot: "bg-destructive",
  },
};

/** Pending, Checking DNS, Issuing certificate, Active or Failed; the running steps spin. */
export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const tone = DOMAIN_TONE[status];
  return (
    <span
      className={cn("inline-flex h-6 shrink-0 items-center gap-1.5 rounded-full border px-2 text-xs font-medium whitespace-nowrap", TONE[tone].badge)}
    >
      {tone === "progress" ? (
        <Loader2 className="size-3 animate-spin" aria-hidden />
      ) : (
        <span className={cn("size-1.5 rounded-full", TONE[tone].dot)} aria-hidden />
      )}
      {DOMAIN_STATUS_LABELS[status]}
    </span>
  );
}
