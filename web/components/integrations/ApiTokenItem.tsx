// One API token in the list: its name, permission and prefix, the sites it covers, when it was
// made, when it expires and when it was last used, and Revoke.
import { useState } from "react";
import { Ban, CalendarClock, Clock, Globe, KeyRound, Layers } from "lucide-react";
import { API_TOKEN_TEXT, type ApiTokenResponse } from "../../../common/apiTokens";
import { timeAgo } from "../../../common/format";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { expiryLabel, lastUsedLabel, PERMISSION_TEXT, prefixLabel, scopeLabel } from "./apiTokens";
import { useRevokeApiToken } from "./useApiTokenActions";

const BADGE = "inline-flex h-6 shrink-0 items-center rounded-full border px-2 text-xs font-medium whitespace-nowrap";

export function ApiTokenItem({ token, now }: { token: ApiTokenResponse; now: Date }) {
  const revoke = useRevokeApiToken();
  const [confirming, setConfirming] = useState(false);
  const permission = PERMISSION_TEXT[token.permission];
  const expiry = expiryLabel(token, now);
  const lastUsed = lastUsedLabel(token, now);
  const created = new Date(token.created_at);

  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-start sm:px-6" aria-label={token.name}>
      <div className="flex min-w-0 flex-1 gap-3">
        <span className="mt-0.5 hidden size-8 shrink-0 items-center justify-center rounded-full bg-accent text-primary sm:flex">
          <KeyRound className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
            <h3 className="min-w-0 font-medium break-words">{token.name}</h3>
            <span className={cn(BADGE, "border-border bg-muted text-muted-foreground")} title={permission.description}>
              {permission.label}
            </span>
            {expiry.expired && <span className={cn(BADGE, "border-warning/30 bg-warning/10 text-amber-700")}>Expired</span>}
          </div>
          <p className="mt-1 text-xs text-muted-foreground">{permission.description}</p>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <li className="flex items-center gap-1.5">
              <span className="sr-only">Prefix: </span>
              <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[12px] text-foreground">{prefixLabel(token)}</code>
            </li>
            <li className="flex items-center gap-1.5">
              {token.site ? <Globe className="size-3.5" aria-hidden /> : <Layers className="size-3.5" aria-hidden />}
              <span className="sr-only">Sites: </span>
              <span>{scopeLabel(token)}</span>
            </li>
            <li className="flex items-center gap-1.5">
              <CalendarClock className="size-3.5" aria-hidden />
              <span>
                <time dateTime={token.created_at} title={created.toLocaleString()}>
                  Created {timeAgo(created, now)}
                </time>
                <span aria-hidden> · </span>
                <span className={cn(expiry.expired && "text-amber-700")}>{expiry.label}</span>
              </span>
            </li>
            <li className="flex items-center gap-1.5">
              <Clock className="size-3.5" aria-hidden />
              <span title={lastUsed.title}>{lastUsed.label}</span>
            </li>
          </ul>
        </div>
      </div>
      <div className="flex shrink-0 sm:pl-0">
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" disabled={revoke.isPending}>
              <Ban aria-hidden />
              Revoke
              <span className="sr-only"> {token.name}</span>
            </Button>
          }
          title={`Revoke the token “${token.name}”?`}
          titleClassName="break-words"
          description="Scripts, CI jobs and tools that use it stop working at once: their next request is refused. This cannot be undone; create a new token to replace it."
          confirmLabel="Revoke token"
          pendingLabel="Revoking"
          destructive
          failureTitle={API_TOKEN_TEXT.revokeFailed}
          onConfirm={() => revoke.mutateAsync(token)}
        />
      </div>
    </li>
  );
}
