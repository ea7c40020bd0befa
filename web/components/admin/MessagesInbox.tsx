// The admin page's inbox: contact-form and support messages, newest first, 20 a page. Each can be
// marked handled (or back) and answered once by e-mail; the answer stays on the message.
import { useState } from "react";
import { CheckCheck, Inbox, LifeBuoy, Mail, MailWarning, Reply, RotateCcw } from "lucide-react";
import { toast } from "sonner";
import type { AdminMessage } from "../../../common/support";
import { timeAgo } from "../../../common/format";
import { useAdminMessages, useSetMessageHandled } from "../../lib/adminQueries";
import { errorDescription } from "../../lib/api";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { SkeletonRow } from "../ui/Skeleton";
import { Pagination } from "./Pagination";
import { ReplyDialog } from "./ReplyDialog";

export function MessagesInbox({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const messages = useAdminMessages(page);
  const [replyTo, setReplyTo] = useState<AdminMessage | null>(null);
  const data = messages.data;

  if (!data) {
    return messages.isError ? (
      <LoadError
        title="Could not load messages"
        message={errorDescription(messages.error)}
        onRetry={() => void messages.refetch()}
        retrying={messages.isFetching}
      />
    ) : (
      <Card className="divide-y">
        {[0, 1, 2].map((i) => (
          <SkeletonRow key={i} />
        ))}
      </Card>
    );
  }
  if (data.total === 0) {
    return (
      <Placeholder
        icon={<Inbox aria-hidden />}
        title="No messages yet"
        body="Messages from the contact page and support requests from the help page appear here."
      />
    );
  }
  return (
    <div className={cn("flex flex-col gap-4 transition-opacity", messages.isPlaceholderData && "opacity-60")}>
      <ul className="flex flex-col gap-3" aria-label="Messages">
        {data.messages.map((message) => (
          <MessageCard key={message.id} message={message} onReply={() => setReplyTo(message)} />
        ))}
      </ul>
      <Pagination page={page} pageSize={data.pageSize} shown={data.messages.length} total={data.total} onPage={onPage} label="Pages of messages" />
      <ReplyDialog message={replyTo} onClose={() => setReplyTo(null)} />
    </div>
  );
}

function MessageCard({ message, onReply }: { message: AdminMessage; onReply: () => void }) {
  const handled = message.handledAt !== null;
  const setHandled = useSetMessageHandled();
  const [expanded, setExpanded] = useState(false);
  const long = message.message.length > 400 || message.message.split("\n").length > 6;
  const toggle = () =>
    setHandled.mutate(
      { id: message.id, handled: !handled },
      {
        onSuccess: () => toast.success(handled ? "Marked as not handled" : "Marked as handled"),
        onError: (error) => toast.error("Could not update the message", { description: errorDescription(error) }),
      },
    );
  const Kind = message.kind === "support" ? LifeBuoy : Mail;
  return (
    <li>
      <Card className={cn("flex flex-col gap-3 p-4 sm:p-5", !handled && "border-primary/40 ring-1 ring-primary/15")}>
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="min-w-0">
            <h3 className="font-semibold [overflow-wrap:anywhere]">{message.subject}</h3>
            <p className="text-sm text-muted-foreground">
              {message.name} · <span className="[overflow-wrap:anywhere]">{message.email}</span>
            </p>
          </div>
          <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs text-muted-foreground">
            {!handled && <span className="rounded-full bg-primary px-2 py-0.5 font-medium text-primary-foreground">Not handled</span>}
            <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 font-medium">
              <Kind className="size-3" aria-hidden />
              {message.kind === "support" ? "Support" : "Contact form"}
            </span>
            <time dateTime={message.createdAt} title={new Date(message.createdAt).toLocaleString()}>
              {timeAgo(new Date(message.createdAt))}
            </time>
          </div>
        </div>
        <p className={cn("whitespace-pre-wrap text-sm [overflow-wrap:anywhere]", long && !expanded && "line-clamp-5")}>{message.message}</p>
        {long && (
          <button type="button" className="self-start text-sm font-medium text-primary hover:underline" onClick={() => setExpanded((v) => !v)}>
            {expanded ? "Show less" : "Show the whole message"}
          </button>
        )}
        {message.deliveryError && (
          <p className="flex items-center gap-1.5 text-xs text-destructive">
            <MailWarning className="size-3.5" aria-hidden />
            Not mailed to the operator: {message.deliveryError}
          </p>
        )}
        {message.reply && (
          <div className="rounded-lg border-l-2 border-primary bg-muted/50 px-3 py-2 text-sm">
            <p className="text-xs font-medium text-muted-foreground">
              Replied {timeAgo(new Date(message.reply.sentAt))}
              {message.reply.by ? ` by ${message.reply.by}` : ""}
            </p>
            <p className="mt-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{message.reply.text}</p>
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" size="sm" onClick={toggle} disabled={setHandled.isPending}>
            {handled ? <RotateCcw aria-hidden /> : <CheckCheck aria-hidden />}
            {handled ? "Mark as not handled" : "Mark as handled"}
          </Button>
          {!message.reply && (
            <Button size="sm" onClick={onReply}>
              <Reply aria-hidden />
              Reply
            </Button>
          )}
        </div>
      </Card>
    </li>
  );
}
