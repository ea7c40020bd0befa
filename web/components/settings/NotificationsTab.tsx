// E-mail preferences (GET/PUT /api/me/notifications). Each switch saves on change: the switch
// moves at once, and moves back with a toast if the server refuses.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Mail } from "lucide-react";
import type { NotificationPreferences } from "../../../common/account";
import { SETTINGS_TEXT } from "../../../common/texts";
import { api } from "../../lib/api";
import { queryKeys, useNotificationPreferences } from "../../lib/queries";
import { LoadError } from "../ui/LoadError";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { Label } from "../ui/Label";
import { Skeleton } from "../ui/Skeleton";
import { Switch } from "./Switch";

const T = SETTINGS_TEXT.notifications;

const ROWS: { key: keyof NotificationPreferences; label: string; body: string }[] = [
  { key: "deployFailed", label: T.deployFailed, body: T.deployFailedBody },
  { key: "domainActive", label: T.domainActive, body: T.domainActiveBody },
  { key: "weeklySummary", label: T.weeklySummary, body: T.weeklySummaryBody },
];

export function NotificationsTab() {
  const preferences = useNotificationPreferences();
  const queryClient = useQueryClient();

  const save = useMutation({
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

  function toggle(key: keyof NotificationPreferences, label: string, on: boolean) {
    const current = preferences.data;
    if (!current) return;
    save.mutate(
      { ...current, [key]: on },
      {
        onSuccess: () => toast.success(T.saved, { description: on ? T.turnedOn(label) : T.turnedOff(label) }),
      },
    );
  }

  return (
    <Card className="max-w-3xl">
      <CardHeader className="border-b">
        <CardTitle className="flex items-center gap-2 text-base">
          <Mail className="size-4 text-primary" aria-hidden />
          {T.title}
        </CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent className="p-0">
        {preferences.isError ? (
          <LoadError inline title={T.loadFailed} onRetry={() => void preferences.refetch()} retrying={preferences.isFetching} className="px-6 py-5" />
        ) : (
          <ul className="divide-y">
            {ROWS.map(({ key, label, body }) => {
              const id = `notify-${key}`;
              return (
                <li key={key} className="flex items-center justify-between gap-6 px-6 py-4">
                  <div className="grid gap-1">
                    <Label htmlFor={id} className="cursor-pointer">
                      {label}
                    </Label>
                    <p id={`${id}-body`} className="text-sm text-muted-foreground">
                      {body}
                    </p>
                  </div>
                  {preferences.data ? (
                    <Switch
                      id={id}
                      checked={preferences.data[key]}
                      onCheckedChange={(on) => toggle(key, label, on)}
                      aria-describedby={`${id}-body`}
                    />
                  ) : (
                    <Skeleton className="h-6 w-11 rounded-full" />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
