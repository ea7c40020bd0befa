// The bell: the unread count on every dashboard page, and the feed in a popover (newest first,
// older pages on demand). Both follow `notification` server events, so a deploy finishing in
// the background shows here without a reload.
import { useState } from "react";
import { Bell, BellOff, Check, CheckCheck, Settings } from "lucide-react";
import { Link } from "react-router";
import { NOTIFICATIONS_TEXT as T, type Notification } from "../../../common/notifications";
import { timeAgo } from "../../../common/format";
import { errorDescription } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useMarkAllRead, useMarkRead, useNotificationEvents, useNotificationFeed, useUnreadCount } from "../../lib/notificationQueries";
import { useNow } from "../../lib/useNow";
import { Button } from "../ui/Button";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/Popover";
import { Loading, SkeletonRow } from "../ui/Skeleton";
import { toast } from "sonner";
import { NoticeIcon } from "./NoticeIcon";

export function NotificationsMenu() {
  const [open, setOpen] = useState(false);
  useNotificationEvents();
  const count = useUnreadCount().data ?? 0;

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative size-9 text-muted-foreground hover:text-foreground"
          aria-label={count > 0 ? `${T.title}, ${T.unread(count)}` : T.title}
        >
          <Bell className="size-[18px]" aria-hidden />
          {count > 0 && (
            <span
              data-testid="notification-badge"
              aria-hidden
              className="absolute right-0.5 top-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-destructive px-1 text-[11px] font-semibold leading-none text-destructive-foreground ring-2 ring-background"
            >
              {count > 99 ? "99+" : count}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="flex max-h-[min(600px,calc(100dvh-80px))] w-[400px] flex-col" aria-label={T.title}>
        <Feed unread={count} onNavigate={() => setOpen(false)} />
      </PopoverContent>
    </Popover>
  );
}

function Feed({ unread, onNavigate }: { unread: number; onNavigate: () => void }) {
  const feed = useNotificationFeed(true);
  const markAll = useMarkAllRead();
  const notices = feed.data?.pages.flatMap((page) => page.notifications) ?? [];

  return (
    <>
      <div className="flex items-center justify-between gap-3 border-b px-4 py-3">
        <div className="min-w-0">
          <h2 className="text-sm font-semibold">{T.title}</h2>
          {unread > 0 && <p className="text-xs text-muted-foreground">{T.unread(unread)}</p>}
        </div>
        {unread > 0 && (
          <Button
            variant="ghost"
            size="sm"
            className="-mr-2 text-primary hover:text-primary"
            disabled={markAll.isPending}
            onClick={() => markAll.mutate(undefined, { onError: (error) => toast.error(T.markFailed, { description: errorDescription(error) }) })}
          >
            <CheckCheck aria-hidden />
            {T.markAllRead}
          </Button>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        {feed.isPending ? (
          <Loading label={`Loading ${T.title.toLowerCase()}`} className="flex flex-col gap-5 px-4 py-4">
            {Array.from({ length: 3 }, (_, i) => (
              <SkeletonRow key={i} media="size-8 rounded-full" lines={["w-48", "w-64"]} />
            ))}
          </Loading>
        ) : feed.isError ? (
          <LoadError inline title={T.loadFailed} onRetry={() => void feed.refetch()} retrying={feed.isFetching} className="px-4 py-5" />
        ) : notices.length === 0 ? (
          <Placeholder
            icon={<BellOff className="size-5" aria-hidden />}
            title={T.empty}
            body={T.emptyBody}
            heading="h3"
            className="rounded-none border-0 bg-transparent px-6 py-10 [&_h3]:text-base"
          />
        ) : (
          <ul className="divide-y" aria-label={T.title}>
            {notices.map((notice) => (
              <NoticeItem key={notice.id} notice={notice} onNavigate={onNavigate} />
            ))}
          </ul>
        )}
        {feed.hasNextPage && (
          <div className="border-t p-2">
            <Button variant="ghost" size="sm" className="w-full" disabled={feed.isFetchingNextPage} onClick={() => void feed.fetchNextPage()}>
              {T.loadMore}
            </Button>
          </div>
        )}
      </div>
      <div className="border-t p-2">
        <Button asChild variant="ghost" size="sm" className="w-full justify-center text-muted-foreground">
          <Link to="/dashboard/settings?tab=notifications" onClick={onNavigate}>
            <Settings aria-hidden />
            {T.settings}
          </Link>
        </Button>
      </div>
    </>
  );
}

/** A notice's link is a dashboard path the server wrote; anything else is shown without one. */
const dashboardPath = (link: string | null) => (link !== null && /^\/dashboard(\/|\?|$)/.test(link) ? link : null);

function NoticeItem({ notice, onNavigate }: { notice: Notification; onNavigate: () => void }) {
  const now = useNow(30_000);
  const markRead = useMarkRead();
  const unread = notice.read_at === null;
  const link = dashboardPath(notice.link);
  const created = new Date(notice.created_at);
  const read = () => markRead.mutate(notice.id, { onError: (error) => toast.error(T.markFailed, { description: errorDescription(error) }) });

  return (
    <li className={cn("relative flex gap-3 px-4 py-3 transition-colors hover:bg-muted/50", unread && "bg-accent/40")} data-unread={unread}>
      <NoticeIcon kind={notice.kind} />
      <div className="min-w-0 flex-1">
        <p className={cn("text-sm leading-snug break-words", unread ? "font-semibold" : "font-medium text-foreground/90")}>
          {link ? (
            <Link
              to={link}
              className="outline-none after:absolute after:inset-0 focus-visible:underline"
              onClick={() => {
                if (unread) read();
                onNavigate();
              }}
            >
              {notice.title}
            </Link>
          ) : (
            notice.title
          )}
        </p>
        {notice.body && <p className="mt-0.5 line-clamp-3 text-sm leading-snug break-words text-muted-foreground">{notice.body}</p>}
        <time dateTime={notice.created_at} title={created.toLocaleString()} className="mt-1 block text-xs text-muted-foreground">
          {timeAgo(created, now)}
        </time>
      </div>
      {unread && (
        <Button
          variant="ghost"
          size="icon"
          className="relative z-10 -mr-1.5 size-8 shrink-0 text-muted-foreground hover:text-foreground"
          aria-label={`${T.markRead}: ${notice.title}`}
          title={T.markRead}
          disabled={markRead.isPending}
          onClick={read}
        >
          <Check aria-hidden />
        </Button>
      )}
    </li>
  );
}
