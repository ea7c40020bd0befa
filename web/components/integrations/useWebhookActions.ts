// The webhooks card's writes: add (the answer holds the secret, shown once), enable or disable,
// delete, send a test and redeliver. Each refreshes the list and any open deliveries.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  WEBHOOK_TEXT,
  type CreatedWebhookResponse,
  type CreateWebhookRequest,
  type WebhookDeliveryResponse,
  type WebhookResponse,
} from "../../../common/webhooks";
import { api, errorDescription } from "../../lib/api";
import { queryKeys } from "../../lib/queries";

const path = (webhook: Pick<WebhookResponse, "id">) => `/api/webhooks/${encodeURIComponent(webhook.id)}`;

function useRefreshWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks });
}

export function useCreateWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (body: CreateWebhookRequest) => api<CreatedWebhookResponse>("/api/webhooks", { method: "POST", json: body }),
    onSuccess: ({ webhook }) => toast.success(WEBHOOK_TEXT.created, { description: webhook.url }),
    onError: (error) => toast.error(WEBHOOK_TEXT.createFailed, { description: errorDescription(error) }),
    onSettled: refresh,
  });
}

export function useSetWebhookEnabled() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: ({ webhook, enabled }: { webhook: WebhookResponse; enabled: boolean }) =>
      api<WebhookResponse>(path(webhook), { method: "PATCH", json: { enabled } }),
    onSuccess: (webhook) => toast.success(WEBHOOK_TEXT.updated, { description: webhook.enabled ? "Enabled" : "Disabled" }),
    onError: (error) => toast.error(WEBHOOK_TEXT.updateFailed, { description: errorDescription(error) }),
    onSettled: refresh,
  });
}

/** Deletes a webhook. Used behind its confirmation, which tells a failure itself. */
export function useDeleteWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (webhook: WebhookResponse) => api<void>(path(webhook), { method: "DELETE" }),
    onSuccess: (_, webhook) => toast.success(WEBHOOK_TEXT.deleted, { description: webhook.url }),
    onSettled: refresh,
  });
}

export function useSendTestWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (webhook: WebhookResponse) => api<WebhookDeliveryResponse>(`${path(webhook)}/test`, { method: "POST", json: {} }),
    onSuccess: () => toast.success(WEBHOOK_TEXT.testQueued, { description: "It is sent within a few seconds; its outcome shows under Deliveries." }),
    onError: (error) => toast.error(WEBHOOK_TEXT.testFailed, { description: errorDescription(error) }),
    onSettled: refresh,
  });
}

export function useRedeliverWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: ({ webhook, delivery }: { webhook: WebhookResponse; delivery: WebhookDeliveryResponse }) =>
      api<WebhookDeliveryResponse>(`${path(webhook)}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`, { method: "POST", json: {} }),
    onSuccess: () => toast.success(WEBHOOK_TEXT.redeliverQueued),
    onError: (error) => toast.error(WEBHOOK_TEXT.redeliverFailed, { description: errorDescription(error) }),
    onSettled: refresh,
  });
}
