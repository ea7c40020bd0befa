// Sends a user better-auth's password-reset e-mail, the same message as "Forgot password".
import type { AppContext } from "../../context";
import { requireUserById } from "./findUser";
import type { ActorId } from "./rules";

/** Where the e-mailed link lands: the page web/routes/auth/ForgotPassword.tsx asks for too. */
export const RESET_PASSWORD_REDIRECT = "/auth/update-password";

export async function sendPasswordReset(ctx: Pick<AppContext, "db" | "env" | "auth" | "log">, actorId: ActorId, userId: string): Promise<void> {
  const target = await requireUserById(ctx, userId);
  // Called on the server, better-auth applies neither its rate limit nor its origin check: both
  // guard the public endpoint, and only an admin gets here.
  await ctx.auth.api.requestPasswordReset({ body: { email: target.email, redirectTo: RESET_PASSWORD_REDIRECT } });
  ctx.log.info({ userId, email: target.email, by: actorId ?? "operator" }, "admin sent a password-reset e-mail");
}
