// Active sessions (GET /api/me/sessions): device, browser, OS, address and last activity, with
// "This device" on the current one. Revoke one (DELETE /api/me/sessions/:id) or all the others
// (POST /api/me/sessions/revoke-others), each after a confirmation.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { LogOut, Monitor, Smartphone, Tablet, type LucideIcon } from "lucide-react";
import type { SessionInfo } from "../../../common/account";
import { timeAgo } from "../../../common/format";
import { SETTINGS_TEXT } from "../../../common/texts";
import { api } from "../../lib/api";
import { queryKeys, useAccountSessions } from "../../lib/queries";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { LoadError } from "../ui/LoadError";
import { Loading, SkeletonRow } from "../ui/Skeleton";
import { sessionAddress, sessionTitle } from "./sessions";

const T = SETTINGS_TEXT.sessions;

const DEVICE_ICON: Record<string, LucideIcon> = {
  Mobile: Smartphone,
  Tablet: Tablet,
};

type Pending = { kind: "one"; session: SessionInfo } | { kind: "others" } | null;

export function SessionsList() {
  const sessions = useAccountSessions();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);

  const revoke = useMutation({
    mutationFn: (target: Exclude<Pending, null>) =>
      target.kind === "one"
        ? api<unknown>(`/api/me/sessions/${encodeURIComponent(target.session.id)}`, { method: "DELETE" })
        : api<unknown>("/api/me/sessions/revoke-others", { method: "POST" }),
    onSuccess: (_result, target) => toast.success(target.kind === "one" ? T.revoked : T.revokedOthers),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });

  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current).length;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b">
        <div className="grid gap-1.5">
          <CardTitle className="text-base">{T.title}</CardTitle>
          <CardDescription>{T.description}</CardDescription>
        </div>
        <Button
          variant="outline"
          disabled={others === 0 || revoke.isPending}
          onClick={() => setPending({ kind: "others" })}
          className="w-full sm:w-auto"
        >
          <LogOut aria-hidden />
          {T.revokeOthers}
        </Button>
      </CardHeader>
      <CardContent className="p-0">
        {sessions.isPending ? (
          <ListSkeleton />
        ) : sessions.isError ? (
          <LoadError inline title={T.loadFailed} onRetry={() => void sessions.refetch()} retrying={sessions.isFetching} className="px-6 py-5" />
        ) : (
          <ul aria-label={T.title} className="divide-y">
            {list.map((session) => (
              <SessionRow key={session.id} session={session} onRevoke={() => setPending({ kind: "one", session })} disabled={revoke.isPending} />
            ))}
            {others === 0 && <li className="px-6 py-4 text-sm text-muted-foreground">{T.onlyThis}</li>}
          </ul>
        )}
      </CardContent>

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === "others" ? T.revokeOthersTitle : T.revokeTitle}
        description={pending?.kind === "one" ? T.revokeBody(sessionTitle(pending.session)) : T.revokeOthersBody}
        confirmLabel={pending?.kind === "others" ? T.revokeOthers : T.revoke}
        pendingLabel="Signing out"
        destructive
        failureTitle={T.failed}
        onConfirm={() => (pending ? revoke.mutateAsync(pending) : undefined)}
      />
    </Card>
  );
}

function SessionRow({ session, onRevoke, disabled }: { session: SessionInfo; onRevoke: () => void; disabled: boolean }) {
  const Icon = DEVICE_ICON[session.device] ?? Monitor;
  const title = sessionTitle(session);
  const address = sessionAddress(session.ipAddress);
  return (
    <li className="flex items-center gap-4 px-6 py-4" data-testid="session-row">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-muted text-muted-foreground">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p className="truncate text-sm font-medium">{title}</p>
          {session.current && (
            <span className="rounded-full bg-success/15 px-2 py-0.5 text-xs font-medium text-[oklch(0.42_0.12_150)]">{T.thisDevice}</span>
          )}
        </div>
        <p className="mt-1 flex flex-wrap gap-x-1.5 text-xs text-muted-foreground">
          <span>{session.device}</span>
          <span className="whitespace-nowrap">
            <span aria-hidden>· </span>
            {address ? <span className="font-mono">{address}</span> : T.unknownIp}
          </span>
          <span className="whitespace-nowrap">
            <span aria-hidden>· </span>
            <time dateTime={session.lastActiveAt} title={new Date(session.lastActiveAt).toLocaleString()}>
              {T.lastActive(timeAgo(new Date(session.lastActiveAt)))}
            </time>
          </span>
        </p>
      </div>
      {!session.current && (
        <Button
          variant="ghost"
          size="sm"
          disabled={disabled}
          onClick={onRevoke}
          aria-label={`${T.revoke} ${title}`}
          className="shrink-0 text-muted-foreground hover:text-destructive"
        >
          {T.revoke}
        </Button>
      )}
    </li>
  );
}

function ListSkeleton() {
  return (
    <Loading label="Loading sessions" className="divide-y">
      {[0, 1].map((row) => (
        <SkeletonRow key={row} className="gap-4 px-6 py-4" />
      ))}
    </Loading>
  );
}
