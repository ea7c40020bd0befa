// One webhook's last deliveries: the event, its status, the last answer (status code and time, or
// why none came), when, and Redeliver, which sends the same event (same id) again.
import { RotateCcw } from "lucide-react";
import { timeAgo } from "../../../common/format";
import type { WebhookResponse } from "../../../common/webhooks";
import { useWebhookDeliveries } from "../../lib/queries";
import { Button } from "../ui/Button";
import { LoadError } from "../ui/LoadError";
import { Loading, SkeletonRow } from "../ui/Skeleton";
import { DeliveryStatusBadge } from "./DeliveryStatusBadge";
import { deliveryOutcome, eventLabel, nextTryLabel } from "./webhooks";
import { useRedeliverWebhook } from "./useWebhookActions";

export function WebhookDeliveries({ webhook, now }: { webhook: WebhookResponse; now: Date }) {
  const deliveries = useWebhookDeliveries(webhook.id, true);
  const redeliver = useRedeliverWebhook();

  if (deliveries.isPending) {
    return (
      <Loading label="Loading deliveries" className="divide-y">
        {[0, 1].map((row) => (
          <SkeletonRow key={row} className="px-4 py-3" />
        ))}
      </Loading>
    );
  }
  if (deliveries.isError) {
    return (
      <LoadError
        inline
        title="Failed to load deliveries"
        message={deliveries.error.message}
        onRetry={() => void deliveries.refetch()}
        retrying={deliveries.isFetching}
        className="px-4 py-3"
      />
    );
  }
  if (deliveries.data.length === 0) {
    return <p className="px-4 py-4 text-sm text-muted-foreground">No deliveries yet. Send a test event, or deploy a site, to see one here.</p>;
  }
  return (
    <ul className="divide-y" aria-label={`Deliveries to ${webhook.url}`}>
      {deliveries.data.map((delivery) => {
        const created = new Date(delivery.created_at);
        const next = nextTryLabel(delivery, now);
        const busy = redeliver.isPending && redeliver.variables.delivery.id === delivery.id;
        return (
          <li key={delivery.id} className="flex items-start gap-3 px-4 py-3 text-sm">
            <div className="grid min-w-0 flex-1 gap-1">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <DeliveryStatusBadge delivery={delivery} />
                <span className="font-medium">{eventLabel(delivery.type)}</span>
                <span className="text-muted-foreground tabular-nums">
                  {deliveryOutcome(delivery)}
                  {delivery.attempts > 1 && ` · ${delivery.attempts} attempts`}
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                <time dateTime={delivery.created_at} title={created.toLocaleString()}>
                  {timeAgo(created, now)}
                </time>
                {next && <span className="text-amber-700">{next}</span>}
                <code className="min-w-0 font-mono text-[11px] break-all" title="Its Berth-Delivery header">
                  {delivery.id}
                </code>
              </div>
            </div>
            <Button
              variant="ghost"
              size="sm"
              className="shrink-0"
              disabled={busy || !webhook.enabled}
              onClick={() => redeliver.mutate({ webhook, delivery })}
            >
              <RotateCcw aria-hidden />
              Redeliver
              <span className="sr-only">
                {" "}
                {eventLabel(delivery.type)} from {timeAgo(created, now)}
              </span>
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
