// What the row menu's commands do: quick ones run at once (shown in the list before the server
// answers), ban and delete ask first. Each call gets its own promise, so two quick changes in a
// row both get their toast. Every outcome ends in a toast; failures carry the server's
// message.
import { useState } from "react";
import { toast } from "sonner";
import type { AdminUser, AdminUserUpdate } from "../../../common/admin";
import { findPlan, type PlanCatalog } from "../../../common/plans";
import { ADMIN_TEXT } from "../../../common/texts";
import { useDeleteAdminUser, useSendPasswordReset, useUpdateAdminUser } from "../../lib/adminQueries";
import type { UserCommand } from "./UserActionsMenu";
import { errorDescription } from "../../lib/api";
import { usePlans } from "../../lib/usePlans";

function successTitle(update: AdminUserUpdate, plans: PlanCatalog | undefined): string {
  if (update.plan) return ADMIN_TEXT.planChanged((plans && findPlan(plans, update.plan)?.name) ?? update.plan);
  if (update.banned !== undefined) return update.banned ? ADMIN_TEXT.bannedToast : ADMIN_TEXT.unbannedToast;
  return update.isAdmin ? ADMIN_TEXT.promoted : ADMIN_TEXT.demoted;
}

export function useUserCommands() {
  const plans = usePlans();
  const update = useUpdateAdminUser();
  const reset = useSendPasswordReset();
  const remove = useDeleteAdminUser();
  const [banTarget, setBanTarget] = useState<AdminUser | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<AdminUser | null>(null);

  function patch(user: AdminUser, changes: AdminUserUpdate) {
    void update.mutateAsync({ user, update: changes }).then(
      (saved) => toast.success(successTitle(changes, plans), { description: saved.email }),
      (error: unknown) =>
        toast.error(ADMIN_TEXT.actionFailed, {
          description: errorDescription(error),
        }),
    );
  }

  function run(user: AdminUser, command: UserCommand) {
    switch (command.kind) {
      case "plan":
        return patch(user, { plan: command.plan });
      case "ban":
        return setBanTarget(user);
      case "unban":
        return patch(user, { banned: false });
      case "admin":
        return patch(user, { isAdmin: command.isAdmin });
      case "passwordReset":
        return void reset.mutateAsync(user).then(
          () =>
            toast.success(ADMIN_TEXT.resetSent, {
              description: ADMIN_TEXT.resetSentBody(user.email),
            }),
          (error: unknown) =>
            toast.error(ADMIN_TEXT.resetFailed, {
              description: errorDescription(error),
            }),
        );
      case "delete":
        return setDeleteTarget(user);
    }
  }

  // The dialogs close themselves: the ban at once (the list shows it before the server answers),
  // the deletion once it has succeeded. A failed deletion is told by its dialog.
  const confirmBan = (user: AdminUser) => patch(user, { banned: true });

  const confirmDelete = (user: AdminUser) =>
    remove.mutateAsync(user).then(() => {
      setDeleteTarget(null);
      toast.success(ADMIN_TEXT.deleted, {
        description: ADMIN_TEXT.deletedBody(user.email),
      });
    });

  return {
    run,
    banTarget,
    closeBan: () => setBanTarget(null),
    confirmBan,
    deleteTarget,
    closeDelete: () => setDeleteTarget(null),
    confirmDelete,
  };
}
