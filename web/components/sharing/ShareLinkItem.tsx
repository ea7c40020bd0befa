// One share link: its name and state, the URL to hand out, its views and expiry, what can be done
// with it, and its access log on demand.
import { useState } from "react";
import { ChevronDown, Clock, Eye, KeyRound, Link2, RotateCcw, Ban } from "lucide-react";
import {
  SHARE_LINK_STATE_LABELS,
  SHARE_LINK_TEXT,
  SHARE_LINK_UI_TEXT,
  type ShareLinkResponse,
  type ShareLinkState,
} from "../../../common/shareLinks";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { CopyButton } from "../ui/CopyButton";
import { DeleteButton } from "../ui/DeleteButton";
import { Spinner } from "../ui/Spinner";
import { AccessLog } from "./AccessLog";
import { expiryText, formatViews } from "./shareLinks";
import { useDeleteShareLink, useRevokeShareLink } from "./useShareLinkActions";
import { toast } from "sonner";

const STATE_TONE: Record<ShareLinkState, string> = {
  active: "border-success/25 bg-success/10 text-success",
  expired: "border-warning/30 bg-warning/10 text-amber-700",
  exhausted: "border-warning/30 bg-warning/10 text-amber-700",
  revoked: "border-destructive/25 bg-destructive/10 text-destructive",
};

const BADGE = "inline-flex h-6 shrink-0 items-center gap-1 rounded-full border px-2 text-xs font-medium whitespace-nowrap";

export function ShareLinkItem({
  link,
  siteId,
  now,
  readOnly,
}: {
  link: ShareLinkResponse;
  siteId: string;
  now: Date;
  /** A site marked for deletion: links can still be deleted, nothing else. */
  readOnly: boolean;
}) {
  const revoke = useRevokeShareLink(siteId);
  const remove = useDeleteShareLink(siteId);
  const [confirming, setConfirming] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const expiry = expiryText(link, now.getTime());
  const revoked = link.revoked_at !== null;
  const logId = `share-log-${link.id}`;

  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:px-6" aria-label={link.name}>
      <div className="flex flex-col gap-3 md:flex-row md:items-start">
        <div className="flex min-w-0 flex-1 gap-3">
          <span className="mt-0.5 hidden size-8 shrink-0 items-center justify-center rounded-full bg-accent text-primary sm:flex">
            <Link2 className="size-4" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
              <h4 className="min-w-0 font-medium break-words">{link.name}</h4>
              <span className={cn(BADGE, STATE_TONE[link.state])}>{SHARE_LINK_STATE_LABELS[link.state]}</span>
              {link.has_password && (
                <span className={cn(BADGE, "border-border bg-muted text-muted-foreground")}>
                  <KeyRound className="size-3" aria-hidden />
                  Password
                </span>
              )}
            </div>
            <div className="mt-1.5 flex min-w-0 items-center gap-1 rounded-md border bg-muted/40 py-0.5 pr-0.5 pl-2.5">
              <code
                className={cn(
                  // The whole address on a phone, where a cut would leave only the host.
                  "min-w-0 flex-1 font-mono text-[13px] break-all sm:truncate",
                  link.state !== "active" && "text-muted-foreground line-through decoration-muted-foreground/50",
                )}
                title={link.url}
              >
                {link.url}
              </code>
              <CopyButton value={link.url} label={`Copy the link ${link.name}`} onCopied={() => toast.success(SHARE_LINK_TEXT.copied)} />
            </div>
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
              <li className="flex items-center gap-1.5">
                <Eye className="size-3.5" aria-hidden />
                <span>
                  <span className="sr-only">Views: </span>
                  {formatViews(link.views, link.max_views)}
                  {link.max_views !== null && " views"}
                </span>
              </li>
              <li className="flex items-center gap-1.5">
                <Clock className="size-3.5" aria-hidden />
                <span title={expiry.title}>{expiry.label}</span>
              </li>
            </ul>
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-1.5 sm:gap-2 sm:pl-11 md:pl-0 [&>button]:px-2.5 sm:[&>button]:px-3">
          <Button
            variant="outline"
            size="sm"
            aria-expanded={logOpen}
            aria-controls={logOpen ? logId : undefined}
            onClick={() => setLogOpen((open) => !open)}
          >
            Access log
            <ChevronDown aria-hidden className={cn("transition-transform", logOpen && "rotate-180")} />
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={revoke.isPending || (readOnly && revoked)}
            onClick={() => revoke.mutate({ link, revoked: !revoked })}
          >
            {revoke.isPending ? (
              <Spinner className="size-4 text-current" label="Saving" />
            ) : revoked ? (
              <RotateCcw aria-hidden />
            ) : (
              <Ban aria-hidden />
            )}
            {revoked ? "Restore" : "Revoke"}
            <span className="sr-only"> {link.name}</span>
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            trigger={<DeleteButton label="Delete" item={link.name} disabled={remove.isPending} />}
            title={`Delete the share link “${link.name}”?`}
            titleClassName="break-words"
            description="The link stops working at once and its access log is deleted with it. People who already opened it lose access too. This cannot be undone."
            confirmLabel="Delete link"
            pendingLabel="Deleting"
            destructive
            failureTitle={SHARE_LINK_UI_TEXT.deleteFailed}
            onConfirm={() => remove.mutateAsync(link)}
          />
        </div>
      </div>
      {logOpen && (
        <div className="sm:pl-11">
          <AccessLog id={logId} siteId={siteId} linkId={link.id} />
        </div>
      )}
    </li>
  );
}
