// A delivery's status as a small badge: Delivered, Retrying, Queued or Failed.
import type { WebhookDeliveryResponse } from "../../../common/webhooks";
import { cn } from "../../lib/cn";
import { deliveryStatus, type DeliveryTone } from "./webhooks";

const TONE: Record<DeliveryTone, string> = {
  success: "border-success/25 bg-success/10 text-success",
  warning: "border-warning/30 bg-warning/10 text-amber-700",
  danger: "border-destructive/30 bg-destructive/10 text-destructive",
  muted: "border-border bg-muted text-muted-foreground",
};

export const BADGE = "inline-flex h-6 shrink-0 items-center rounded-full border px-2 text-xs font-medium whitespace-nowrap";

export function DeliveryStatusBadge({ delivery }: { delivery: Pick<WebhookDeliveryResponse, "status" | "attempts"> }) {
  const { label, tone } = deliveryStatus(delivery);
  return <span className={cn(BADGE, TONE[tone])}>{label}</span>;
}
