// What no admin may do to an account, whichever way they ask (admin page or CLI).
import type { AdminUser } from "../../../common/admin";
import { AppError } from "../../errors";

/** Who acts: the signed-in admin's user id, or undefined for the operator at the server's terminal. */
export type ActorId = string | undefined;

export type ProtectedAction = "ban" | "demote" | "delete";

const SELF_MESSAGES: Record<ProtectedAction, string> = {
  ban: "You cannot ban yourself.",
  demote: "You cannot remove your own admin rights.",
  delete: "You cannot delete your own account from the admin tools.",
};

const VERBS: Record<ProtectedAction, string> = { ban: "banned", demote: "demoted", delete: "deleted" };

/**
 * An admin never bans, demotes or deletes themself (they would lock themselves out), and nobody
 * does that to an admin named in BERTH_ADMIN_EMAILS: the operator's setting decides about them.
 */
export function assertAllowed(action: ProtectedAction, actorId: ActorId, target: AdminUser): void {
  if (actorId !== undefined && actorId === target.id) throw new AppError("cannot_change_self", 409, SELF_MESSAGES[action]);
  if (target.adminByConfig) {
    throw new AppError(
      "admin_by_config",
      409,
      `${target.email} is an admin through BERTH_ADMIN_EMAILS and cannot be ${VERBS[action]}. Remove the address from that setting and restart Berth first.`,
    );
  }
}
