// One webhook in the list: its URL, the sites and events it covers, whether it is enabled, how its
// last delivery went; Send test, Deliveries (opens the panel below), Enable/Disable and Delete.
import { useState } from "react";
import { ChevronDown, Globe, Layers, Power, Send, Trash2, Webhook } from "lucide-react";
import { timeAgo } from "../../../common/format";
import { WEBHOOK_TEXT, type WebhookResponse } from "../../../common/webhooks";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { BADGE, DeliveryStatusBadge } from "./DeliveryStatusBadge";
import { WebhookDeliveries } from "./WebhookDeliveries";
import { deliveryOutcome, eventLabel, webhookScopeLabel } from "./webhooks";
import { useDeleteWebhook, useSendTestWebhook, useSetWebhookEnabled } from "./useWebhookActions";

export function WebhookItem({ webhook, now }: { webhook: WebhookResponse; now: Date }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteWebhook();
  const test = useSendTestWebhook();
  const toggle = useSetWebhookEnabled();
  const last = webhook.last_delivery;
  const panelId = `webhook-${webhook.id}-deliveries`;

  return (
    <li aria-label={webhook.url}>
      <div className="flex flex-col gap-3 px-4 py-4 sm:px-6 lg:flex-row lg:items-start">
        <div className="flex min-w-0 flex-1 gap-3">
          <span className="mt-0.5 hidden size-8 shrink-0 items-center justify-center rounded-full bg-accent text-primary sm:flex">
            <Webhook className="size-4" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
              <h3 className="min-w-0 font-mono text-[13px] font-medium break-all">{webhook.url}</h3>
              {!webhook.enabled && <span className={cn(BADGE, "border-border bg-muted text-muted-foreground")}>Disabled</span>}
            </div>
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
              <li className="flex items-center gap-1.5">
                {webhook.site ? <Globe className="size-3.5" aria-hidden /> : <Layers className="size-3.5" aria-hidden />}
                <span className="sr-only">Sites: </span>
                <span>{webhookScopeLabel(webhook)}</span>
              </li>
              <li>
                <span className="sr-only">Events: </span>
                {webhook.events.map(eventLabel).join(", ")}
              </li>
            </ul>
            <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
              {last ? (
                <>
                  <span className="sr-only">Last delivery: </span>
                  <DeliveryStatusBadge delivery={last} />
                  <span className="tabular-nums">
                    {eventLabel(last.type)} · {deliveryOutcome(last)} · {timeAgo(new Date(last.created_at), now)}
                  </span>
                </>
              ) : (
                "No deliveries yet"
              )}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2 lg:shrink-0 lg:justify-end">
          <Button variant="outline" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
            <ChevronDown className={cn("transition-transform", open && "rotate-180")} aria-hidden />
            Deliveries
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!webhook.enabled || test.isPending}
            onClick={() => test.mutate(webhook, { onSuccess: () => setOpen(true) })}
          >
            <Send aria-hidden />
            Send test
          </Button>
          <Button variant="outline" size="sm" disabled={toggle.isPending} onClick={() => toggle.mutate({ webhook, enabled: !webhook.enabled })}>
            <Power aria-hidden />
            {webhook.enabled ? "Disable" : "Enable"}
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            trigger={
              <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" disabled={remove.isPending}>
                <Trash2 aria-hidden />
                Delete
                <span className="sr-only"> the webhook to {webhook.url}</span>
              </Button>
            }
            title="Delete this webhook?"
            description={
              <>
                Berth stops sending events to <span className="font-mono text-[13px] break-all">{webhook.url}</span> at once, and deliveries still
                waiting to be sent are dropped. This cannot be undone.
              </>
            }
            confirmLabel="Delete webhook"
            pendingLabel="Deleting"
            destructive
            failureTitle={WEBHOOK_TEXT.deleteFailed}
            onConfirm={() => remove.mutateAsync(webhook)}
          />
        </div>
      </div>
      {open && (
        <div id={panelId} className="mx-4 mb-4 overflow-hidden rounded-lg border bg-muted/30 sm:mx-6">
          <WebhookDeliveries webhook={webhook} now={now} />
        </div>
      )}
    </li>
  );
}
