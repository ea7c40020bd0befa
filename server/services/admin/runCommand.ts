// The `berth admin` commands, run against a context: by the live server when the CLI reaches it
// over its admin socket (server/adminSocket.ts), or by the CLI itself when no server holds the
// data directory. Either way they call the same services as the admin API.
import { z } from "zod";
import type { AdminUser, AdminUsersResponse } from "../../../common/admin";
import type { AppContext } from "../../context";
import { deleteUser } from "./deleteUser";
import { requireUserByEmail } from "./findUser";
import { listUsers } from "./listUsers";
import { sendPasswordReset } from "./sendPasswordReset";
import { updateUser } from "./updateUser";
import { planById } from "../planPolicy";

const email = z.string().min(1).max(320);

export const AdminCommand = z.discriminatedUnion("command", [
  z.object({ command: z.literal("list-users"), search: z.string().max(200).optional(), page: z.number().int().min(1).optional() }),
  z.object({ command: z.literal("set-plan"), email, plan: z.string().min(1).max(64) }),
  z.object({ command: z.literal("ban"), email }),
  z.object({ command: z.literal("unban"), email }),
  z.object({ command: z.literal("promote"), email }),
  z.object({ command: z.literal("demote"), email }),
  z.object({ command: z.literal("reset-password"), email }),
  z.object({ command: z.literal("delete-user"), email }),
]);
export type AdminCommand = z.infer<typeof AdminCommand>;

export type AdminCommandResult =
  { kind: "users"; users: AdminUsersResponse } | { kind: "user"; user: AdminUser; message: string } | { kind: "done"; message: string };

export type CommandContext = Pick<AppContext, "db" | "env" | "plans" | "events" | "log" | "blobs" | "auth">;

/** The operator at the terminal acts as no user: the rules about oneself do not apply to them. */
const OPERATOR = undefined;

export async function runAdminCommand(ctx: CommandContext, command: AdminCommand): Promise<AdminCommandResult> {
  if (command.command === "list-users") {
    return { kind: "users", users: await listUsers(ctx, { search: command.search, page: command.page }) };
  }
  const target = await requireUserByEmail(ctx, command.email);
  const changed = (update: Parameters<typeof updateUser>[3]) => updateUser(ctx, OPERATOR, target.id, update);
  switch (command.command) {
    case "set-plan": {
      const user = await changed({ plan: command.plan });
      return { kind: "user", user, message: `${user.email} is now on the ${planById(ctx.plans, user.plan).name} plan.` };
    }
    case "ban": {
      const user = await changed({ banned: true });
      return { kind: "user", user, message: `${user.email} is banned: signed out everywhere, and their sites are no longer served.` };
    }
    case "unban": {
      const user = await changed({ banned: false });
      return { kind: "user", user, message: `${user.email} is no longer banned; their sites are served again.` };
    }
    case "promote": {
      const user = await changed({ isAdmin: true });
      return { kind: "user", user, message: `${user.email} is now an admin.` };
    }
    case "demote": {
      const user = await changed({ isAdmin: false });
      return { kind: "user", user, message: `${user.email} is no longer an admin.` };
    }
    case "reset-password": {
      await sendPasswordReset(ctx, OPERATOR, target.id);
      const where = ctx.env.smtpUrl ? "" : ` BERTH_SMTP_URL is not set, so it is in ${ctx.env.dataDir}/outbox/.`;
      return { kind: "done", message: `A password-reset e-mail was sent to ${target.email}.${where}` };
    }
    case "delete-user": {
      await deleteUser(ctx, OPERATOR, target.id);
      const sites = target.siteCount === 1 ? "1 site" : `${target.siteCount} sites`;
      return { kind: "done", message: `Deleted ${target.email} and all their data (${sites}).` };
    }
  }
}
