// Where each kind of notice goes (GET/PUT /api/me/notifications/channels): the bell's feed,
// e-mail, or both, and the weekly summary mail (GET/PUT /api/me/notifications). Each switch saves
// on change: it moves at once, and moves back with a toast if the server refuses.
import type { ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Bell } from "lucide-react";
import type { NotificationPreferences } from "../../../common/account";
import {
  NOTIFICATION_KIND_TEXT,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationChannels,
  type NotificationKind,
} from "../../../common/notifications";
import { SETTINGS_TEXT } from "../../../common/texts";
import { api } from "../../lib/api";
import { queryKeys, useNotificationChannels, useNotificationPreferences } from "../../lib/queries";
import { useSession } from "../../lib/session";
import { LoadError } from "../ui/LoadError";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { Skeleton } from "../ui/Skeleton";
import { Switch } from "./Switch";

const T = SETTINGS_TEXT.notifications;
type Channel = keyof NotificationChannel;
const CHANNEL_NAME: Record<Channel, "Feed" | "E-mail"> = { feed: T.feed, email: T.email };

export function NotificationsTab() {
  const channels = useNotificationChannels();
  const preferences = useNotificationPreferences();
  const isAdmin = useSession().account?.isAdmin === true;
  const queryClient = useQueryClient();
  const kinds = NOTIFICATION_KINDS.filter((kind) => NOTIFICATION_KIND_TEXT[kind].audience === "everyone" || isAdmin);

  const saveChannel = useMutation({
    mutationFn: (change: { kind: NotificationKind; channel: NotificationChannel }) =>
      api<NotificationChannels>("/api/me/notifications/channels", { method: "PUT", json: { channels: { [change.kind]: change.channel } } }),
    onMutate: async ({ kind, channel }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.notificationChannels });
      const previous = queryClient.getQueryData<NotificationChannels>(queryKeys.notificationChannels);
      if (previous) queryClient.setQueryData(queryKeys.notificationChannels, { ...previous, [kind]: channel });
      return { previous };
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.notificationChannels, saved);
      // A failed deployment's and an active domain's e-mail are also the e-mail preferences.
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    },
    onError: (error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.notificationChannels, context.previous);
      toast.error(T.failed, { description: error.message });
    },
  });

  const savePreferences = useMutation({
    mutationFn: (next: NotificationPreferences) => api<NotificationPreferences>("/api/me/notifications", { method: "PUT", json: next }),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.notifications });
      const previous = queryClient.getQueryData<NotificationPreferences>(queryKeys.notifications);
      queryClient.setQueryData(queryKeys.notifications, next);
      return { previous };
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.notifications, saved),
    onError: (error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.notifications, context.previous);
      toast.error(T.failed, { description: error.message });
    },
  });

  function toggle(kind: NotificationKind, channel: Channel, on: boolean) {
    const current = channels.data?.[kind];
    if (!current) return;
    const label = T.channelLabel(CHANNEL_NAME[channel], NOTIFICATION_KIND_TEXT[kind].label);
    saveChannel.mutate(
      { kind, channel: { ...current, [channel]: on } },
      { onSuccess: () => toast.success(T.saved, { description: on ? T.turnedOn(label) : T.turnedOff(label) }) },
    );
  }

  function toggleSummary(on: boolean) {
    const current = channels.data;
    const summary = preferences.data;
    if (!current || !summary) return;
    // The other two preferences are the channels' e-mail switches, read from what the page shows.
    savePreferences.mutate(
      { deployFailed: current.deploy_failed.email, domainActive: current.domain_active.email, weeklySummary: on },
      { onSuccess: () => toast.success(T.saved, { description: on ? T.turnedOn(T.weeklySummary) : T.turnedOff(T.weeklySummary) }) },
    );
  }

  const failed = channels.isError || preferences.isError;
  return (
    <Card className="max-w-3xl">
      <CardHeader className="border-b">
        <CardTitle className="flex items-center gap-2 text-base">
          <Bell className="size-4 text-primary" aria-hidden />
          {T.title}
        </CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent className="p-0">
        {failed ? (
          <LoadError
            inline
            title={T.loadFailed}
            onRetry={() => {
              void channels.refetch();
              void preferences.refetch();
            }}
            retrying={channels.isFetching || preferences.isFetching}
            className="px-6 py-5"
          />
        ) : (
          <div role="table" aria-label={T.title}>
            <div role="row" className="flex items-center gap-3 border-b bg-muted/40 px-4 py-2 text-xs font-medium text-muted-foreground sm:px-6">
              <span role="columnheader" className="flex-1">
                {T.kind}
              </span>
              <span role="columnheader" className="w-14 text-center">
                {T.feed}
              </span>
              <span role="columnheader" className="w-14 text-center">
                {T.email}
              </span>
            </div>
            <div role="rowgroup" className="divide-y">
              {kinds.map((kind) => (
                <Row key={kind} id={`notify-${kind}`} label={NOTIFICATION_KIND_TEXT[kind].label} body={NOTIFICATION_KIND_TEXT[kind].description}>
                  {(["feed", "email"] as const).map((channel) => (
                    <Cell key={channel}>
                      {channels.data ? (
                        <Switch
                          checked={channels.data[kind][channel]}
                          onCheckedChange={(on) => toggle(kind, channel, on)}
                          aria-label={T.channelLabel(CHANNEL_NAME[channel], NOTIFICATION_KIND_TEXT[kind].label)}
                          aria-describedby={`notify-${kind}-body`}
                        />
                      ) : (
                        <Skeleton className="h-6 w-11 rounded-full" />
                      )}
                    </Cell>
                  ))}
                </Row>
              ))}
              <Row id="notify-weeklySummary" label={T.weeklySummary} body={T.weeklySummaryBody}>
                <Cell />
                <Cell>
                  {preferences.data && channels.data ? (
                    <Switch
                      checked={preferences.data.weeklySummary}
                      onCheckedChange={toggleSummary}
                      aria-label={T.channelLabel(T.email, T.weeklySummary)}
                      aria-describedby="notify-weeklySummary-body"
                    />
                  ) : (
                    <Skeleton className="h-6 w-11 rounded-full" />
                  )}
                </Cell>
              </Row>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function Row({ id, label, body, children }: { id: string; label: string; body: string; children: ReactNode }) {
  return (
    <div role="row" className="flex items-center gap-3 px-4 py-3.5 sm:px-6">
      <div role="rowheader" className="grid min-w-0 flex-1 gap-0.5">
        <span className="text-sm font-medium">{label}</span>
        <span id={`${id}-body`} className="text-sm text-muted-foreground">
          {body}
        </span>
      </div>
      {children}
    </div>
  );
}

function Cell({ children }: { children?: ReactNode }) {
  return (
    <div role="cell" className="flex w-14 shrink-0 justify-center">
      {children}
    </div>
  );
}
