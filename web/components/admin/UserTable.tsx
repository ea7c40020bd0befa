// The users as a table (wide containers) or as cards (narrow ones, phones). Both are rendered and
// a container query shows one, so the layout follows the space the page really has, sidebar or not.
import type { AdminUser } from "../../../common/admin";
import { ADMIN_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { Card } from "../ui/Card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/Table";
import { formatJoined } from "./adminUsers";
import { UserActionsMenu, type UserCommand } from "./UserActionsMenu";
import { PlanBadge, StatusBadge, StorageUsage, UserIdentity } from "./UserBits";

interface ListProps {
  users: AdminUser[];
  selfId: string | undefined;
  onCommand: (user: AdminUser, command: UserCommand) => void;
}

function Joined({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {formatJoined(iso)}
    </time>
  );
}

export function UserTable({ users, selfId, onCommand }: ListProps) {
  const c = ADMIN_TEXT.columns;
  return (
    <Table data-testid="admin-users-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>{c.user}</TableHead>
          <TableHead>{c.plan}</TableHead>
          <TableHead>{c.storage}</TableHead>
          <TableHead className="text-right">{c.sites}</TableHead>
          <TableHead>{c.status}</TableHead>
          <TableHead>{c.joined}</TableHead>
          <TableHead className="w-12">
            <span className="sr-only">{c.actions}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => (
          <TableRow key={user.id} data-user-email={user.email} className={cn(user.bannedAt && "bg-destructive/[0.03]")}>
            <TableCell className="max-w-80">
              <UserIdentity user={user} isSelf={user.id === selfId} />
            </TableCell>
            <TableCell>
              <PlanBadge plan={user.plan} />
            </TableCell>
            <TableCell>
              <StorageUsage user={user} />
            </TableCell>
            <TableCell className="text-right tabular-nums">{user.siteCount}</TableCell>
            <TableCell>
              <StatusBadge user={user} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">
              <Joined iso={user.createdAt} />
            </TableCell>
            <TableCell className="pr-3 text-right">
              <UserActionsMenu user={user} selfId={selfId} onCommand={onCommand} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function UserCards({ users, selfId, onCommand }: ListProps) {
  return (
    <ul className="grid gap-3 @xl:grid-cols-2" data-testid="admin-users-cards">
      {users.map((user) => (
        <li key={user.id} data-user-email={user.email} className="flex min-w-0">
          <Card className={cn("flex w-full min-w-0 flex-col gap-3 p-4", user.bannedAt && "border-destructive/25")}>
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <UserIdentity user={user} isSelf={user.id === selfId} />
              </div>
              <UserActionsMenu user={user} selfId={selfId} onCommand={onCommand} />
            </div>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <PlanBadge plan={user.plan} />
              <StatusBadge user={user} />
              <span className="ml-auto text-xs whitespace-nowrap text-muted-foreground">
                {user.siteCount} {user.siteCount === 1 ? "site" : "sites"} · {ADMIN_TEXT.columns.joined} <Joined iso={user.createdAt} />
              </span>
            </div>
            <StorageUsage user={user} row />
          </Card>
        </li>
      ))}
    </ul>
  );
}
