// The ⋯ menu of one user row: plan, ban, admin access, password reset, delete. Actions that are
// not allowed stay visible but disabled, with the reason beside them.
import type { ReactNode } from "react";
import { DropdownMenu as MenuPrimitive } from "radix-ui";
import { Ban, Check, CircleCheck, Mail, MoreHorizontal, ShieldCheck, ShieldOff, Trash2 } from "lucide-react";
import type { AdminUser } from "../../../common/admin";
import { formatPlanLimit, type PlanId } from "../../../common/plans";
import { ADMIN_TEXT } from "../../../common/texts";
import { Button } from "../ui/Button";
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from "../ui/Menu";
import { Tooltip, TooltipContent, TooltipTrigger } from "../ui/Tooltip";
import { usePlans } from "../../lib/usePlans";
import { blockedReason, type AdminAction } from "./adminUsers";

export type UserCommand =
  | { kind: "plan"; plan: PlanId }
  | { kind: "ban" }
  | { kind: "unban" }
  | { kind: "admin"; isAdmin: boolean }
  | { kind: "passwordReset" }
  | { kind: "delete" };

/** A disabled item explains itself: a tooltip on hover, and a line under it for everyone else. */
function Explained({ reason, children }: { reason: "self" | "config" | null; children: ReactNode }) {
  if (reason !== "config") return children;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <div>{children}</div>
      </TooltipTrigger>
      <TooltipContent side="left" className="max-w-64">
        {ADMIN_TEXT.configAdminTooltip}
      </TooltipContent>
    </Tooltip>
  );
}

export function UserActionsMenu({
  user,
  selfId,
  onCommand,
}: {
  user: AdminUser;
  selfId: string | undefined;
  onCommand: (user: AdminUser, command: UserCommand) => void;
}) {
  const reason = (action: AdminAction) => blockedReason(user, selfId, action);
  const isSelf = reason("plan") === "self";
  const run = (command: UserCommand) => onCommand(user, command);
  const banned = user.bannedAt !== null;
  const plans = usePlans()?.plans ?? [];

  return (
    <Menu modal={false}>
      <MenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground data-[state=open]:bg-accent"
          aria-label={ADMIN_TEXT.actionsFor(user.email)}
        >
          <MoreHorizontal aria-hidden />
        </Button>
      </MenuTrigger>
      <MenuContent className="w-64">
        <MenuLabel className="min-w-0">
          <p className="truncate text-sm font-medium">{user.email}</p>
          {isSelf && <p className="mt-1 text-xs leading-snug font-normal text-muted-foreground">{ADMIN_TEXT.selfActions}</p>}
        </MenuLabel>
        <MenuSeparator />
        <MenuLabel className="pt-1.5 pb-1 text-xs font-medium text-muted-foreground">{ADMIN_TEXT.columns.plan}</MenuLabel>
        <MenuPrimitive.RadioGroup
          value={user.plan}
          onValueChange={(plan) => {
            if (plan !== user.plan) run({ kind: "plan", plan });
          }}
        >
          {plans.map((plan) => (
            <MenuPrimitive.RadioItem
              key={plan.id}
              value={plan.id}
              disabled={isSelf}
              className="flex cursor-pointer select-none items-center gap-2 rounded-md px-2.5 py-2 text-sm outline-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
            >
              <span className="flex size-4 items-center justify-center">
                <MenuPrimitive.ItemIndicator>
                  <Check className="size-4 text-primary" aria-hidden />
                </MenuPrimitive.ItemIndicator>
              </span>
              <span className="flex-1">{plan.name}</span>
              <span className="text-xs text-muted-foreground">{formatPlanLimit(plan.storageBytes)}</span>
            </MenuPrimitive.RadioItem>
          ))}
        </MenuPrimitive.RadioGroup>
        <MenuSeparator />
        <Explained reason={reason("ban")}>
          <MenuItem disabled={reason("ban") !== null} onSelect={() => run({ kind: banned ? "unban" : "ban" })}>
            {banned ? <CircleCheck aria-hidden /> : <Ban aria-hidden />}
            <ItemText label={banned ? ADMIN_TEXT.unban : ADMIN_TEXT.ban} note={reason("ban") === "config" ? ADMIN_TEXT.configAdmin : null} />
          </MenuItem>
        </Explained>
        <Explained reason={reason("admin")}>
          <MenuItem disabled={reason("admin") !== null} onSelect={() => run({ kind: "admin", isAdmin: !user.isAdmin })}>
            {user.isAdmin ? <ShieldOff aria-hidden /> : <ShieldCheck aria-hidden />}
            <ItemText
              label={user.isAdmin ? ADMIN_TEXT.removeAdmin : ADMIN_TEXT.makeAdmin}
              note={reason("admin") === "config" ? ADMIN_TEXT.configAdmin : null}
            />
          </MenuItem>
        </Explained>
        <MenuItem disabled={reason("passwordReset") !== null} onSelect={() => run({ kind: "passwordReset" })}>
          <Mail aria-hidden />
          {ADMIN_TEXT.sendReset}
        </MenuItem>
        <MenuSeparator />
        <Explained reason={reason("delete")}>
          <MenuItem
            disabled={reason("delete") !== null}
            onSelect={() => run({ kind: "delete" })}
            className="text-destructive data-[highlighted]:bg-destructive/10 data-[highlighted]:text-destructive [&_svg]:text-destructive"
          >
            <Trash2 aria-hidden />
            <ItemText label={`${ADMIN_TEXT.deleteUser}…`} note={reason("delete") === "config" ? ADMIN_TEXT.configAdmin : null} />
          </MenuItem>
        </Explained>
      </MenuContent>
    </Menu>
  );
}

function ItemText({ label, note }: { label: string; note: string | null }) {
  return (
    <span className="flex flex-col">
      {label}
      {note && <span className="text-xs text-muted-foreground">{note}</span>}
    </span>
  );
}
