// /dashboard/admin: the operator's page, in three tabs (?tab=). Users: every user, newest first,
// 50 a page, with search (?q=) and the page (?page=) in the address; each row's menu sets the
// plan, bans, grants admin access, mails a reset link or deletes the account. Messages: the
// contact and support inbox. Upgrade requests: requests for the plan 'Upgrade' offers, to approve or decline. The API answers 404 to anyone who is not an admin,
// and so does this page: they get the app's not-found screen.
import { useCallback, useEffect } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import { planNamesOr, requestablePlans, upgradeTarget, type PlanCatalog } from "../../../common/plans";
import { ADMIN_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { parsePageParam } from "../../components/admin/adminUsers";
import { AdminNotFound, EmptyPage, NoMatches, NoUsers, UsersSkeleton } from "../../components/admin/AdminStates";
import { BanUserDialog } from "../../components/admin/BanUserDialog";
import { DeleteUserDialog } from "../../components/admin/DeleteUserDialog";
import { Pagination } from "../../components/admin/Pagination";
import { StorageFigures } from "../../components/admin/StorageFigures";
import { useUserCommands } from "../../components/admin/useUserCommands";
import { UserCards, UserTable } from "../../components/admin/UserTable";
import { UserSearch } from "../../components/admin/UserSearch";
import { MessagesInbox } from "../../components/admin/MessagesInbox";
import { UpgradeRequests } from "../../components/admin/UpgradeRequests";
import { Card } from "../../components/ui/Card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/Tabs";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { useAdminMessages, useAdminUpgradeRequests, useAdminUsers, useInboxLiveUpdates } from "../../lib/adminQueries";
import { ApiError, errorDescription } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useSession } from "../../lib/session";
import { usePlans } from "../../lib/usePlans";

export function Admin() {
  const { user: self } = useSession();
  const plans = usePlans();
  const [params, setParams] = useSearchParams();
  const search = params.get("q")?.trim() ?? "";
  const page = parsePageParam(params.get("page"));
  const tab = parseAdminTab(params.get("tab"));
  const users = useAdminUsers(search, page);
  // The tabs' counts, once the user list has shown that this is an admin.
  const inbox = useAdminMessages(1, users.isSuccess);
  const upgrades = useAdminUpgradeRequests(1, users.isSuccess);
  useInboxLiveUpdates(users.isSuccess);
  const commands = useUserCommands();
  const notFound = users.error instanceof ApiError && users.error.status === 404;
  const data = users.data;

  useEffect(() => {
    if (!notFound) document.title = `${ADMIN_TEXT.title} · ${PRODUCT_NAME}`;
  }, [notFound]);

  // A refetch that fails while a list is on screen keeps the list and says so.
  useEffect(() => {
    if (users.isError && data && !notFound)
      toast.error(ADMIN_TEXT.loadFailed, {
        description: errorDescription(users.error),
      });
  }, [users.isError, users.error, users.errorUpdatedAt, data, notFound]);

  const setSearch = useCallback(
    (q: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (q) next.set("q", q);
          else next.delete("q");
          next.delete("page");
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setPage = (target: number) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (target > 1) next.set("page", String(target));
      else next.delete("page");
      return next;
    });
    window.scrollTo({ top: 0 });
  };

  const selectTab = (next: string) =>
    setParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === "users") params.delete("tab");
        else params.set("tab", next);
        params.delete("page");
        return params;
      },
      { replace: true },
    );

  if (notFound) return <AdminNotFound />;

  if (!data && !users.isError) {
    return (
      <div className="flex flex-col gap-6">
        <div className="flex flex-col gap-2">
          <Skeleton className="h-8 w-32 bg-muted-foreground/12" />
          <Skeleton className="h-4 w-72 max-w-full bg-muted-foreground/12" />
        </div>
        <Skeleton className="h-10 w-full bg-muted-foreground/12" />
        <UsersSkeleton />
      </div>
    );
  }

  const list = data?.users ?? [];
  const pagination = data && <Pagination page={page} pageSize={data.pageSize} shown={list.length} total={data.total} onPage={setPage} />;

  return (
    <div className="@container flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{ADMIN_TEXT.title}</h1>
          <p className="mt-1.5 text-sm text-muted-foreground">{ADMIN_TEXT.subtitle(plans && requestedNames(plans))}</p>
        </div>
        {data && !search && tab === "users" && (
          <p className="text-sm font-medium text-muted-foreground tabular-nums">{ADMIN_TEXT.userCount(data.total)}</p>
        )}
      </div>

      <Tabs value={tab} onValueChange={selectTab} className="flex flex-col gap-6">
        <TabsList aria-label="Admin sections">
          <TabsTrigger value="users">Users</TabsTrigger>
          <TabsTrigger value="messages">
            Messages
            <CountBadge count={inbox.data?.unhandled} label="not handled" />
          </TabsTrigger>
          <TabsTrigger value="upgrades">
            Upgrade requests
            <CountBadge count={upgrades.data?.total} label="waiting" />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users" className="flex flex-col gap-6">
          <StorageFigures />

          <UserSearch value={search} onChange={setSearch} busy={users.isFetching && users.isPlaceholderData} />

          {!data ? (
            <LoadError
              title={ADMIN_TEXT.loadFailed}
              message={errorDescription(users.error) || ADMIN_TEXT.loadFailedBody}
              onRetry={() => void users.refetch()}
              retrying={users.isFetching}
            />
          ) : data.total === 0 && !search ? (
            <NoUsers />
          ) : list.length === 0 && search ? (
            <NoMatches query={search} onClear={() => setSearch("")} />
          ) : list.length === 0 ? (
            <EmptyPage onFirstPage={() => setPage(1)} />
          ) : (
            <div className={cn("transition-opacity", users.isPlaceholderData && "opacity-60")} aria-busy={users.isPlaceholderData}>
              <Card className="hidden overflow-hidden @4xl:block">
                <UserTable users={list} selfId={self?.id} onCommand={commands.run} />
                <div className="border-t px-4 py-3">{pagination}</div>
              </Card>
              <div className="flex flex-col gap-4 @4xl:hidden">
                <UserCards users={list} selfId={self?.id} onCommand={commands.run} />
                {pagination}
              </div>
            </div>
          )}
        </TabsContent>
        <TabsContent value="messages">
          <MessagesInbox page={page} onPage={setPage} />
        </TabsContent>
        <TabsContent value="upgrades">
          <UpgradeRequests page={page} onPage={setPage} />
        </TabsContent>
      </Tabs>

      <BanUserDialog user={commands.banTarget} onConfirm={commands.confirmBan} onClose={commands.closeBan} />
      <DeleteUserDialog user={commands.deleteTarget} onConfirm={commands.confirmDelete} onClose={commands.closeDelete} />
    </div>
  );
}

const ADMIN_TABS = ["users", "messages", "upgrades"] as const;
type AdminTab = (typeof ADMIN_TABS)[number];

function parseAdminTab(value: string | null): AdminTab {
  return ADMIN_TABS.find((t) => t === value) ?? "users";
}

/** How many wait in a tab; nothing when none do. */
function CountBadge({ count, label }: { count: number | undefined; label: string }) {
  if (!count) return null;
  return (
    <span className="rounded-full bg-primary px-1.5 py-px text-xs font-semibold text-primary-foreground tabular-nums">
      {count}
      <span className="sr-only"> {label}</span>
    </span>
  );
}

/** The plans users may ask for, for the subtitle: upgradeTo alone, or every plan above the first. */
function requestedNames(plans: PlanCatalog): string | undefined {
  const target = upgradeTarget(plans);
  const requestable = requestablePlans(plans);
  return target && requestable.length > 1 ? planNamesOr(requestable) : target?.name;
}
