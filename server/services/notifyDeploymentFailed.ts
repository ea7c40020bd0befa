// E-mails a site's owner when one of its deployments fails, unless they turned that off in
// Settings, Notifications. Publishing never waits for the mail: the notice follows the
// 'deployment' event, and a mail failure is logged, never the publish's problem.
import type { AppContext } from "../context";
import type { DeploymentChanged } from "../events";
import { getSiteNoticeRecipient } from "../db/repositories/profiles";
import { deploymentFailedMessage } from "../mail/templates";

type NoticeContext = Pick<AppContext, "db" | "mailer" | "env" | "log">;

/** Sends the notice for a failed deployment; resolves to whether a message went out. */
export async function notifyDeploymentFailed(ctx: NoticeContext, change: DeploymentChanged): Promise<boolean> {
  const { deployment } = change;
  if (deployment.status !== "failed") return false;
  const recipient = await getSiteNoticeRecipient(ctx.db, change.siteId);
  if (!recipient || !recipient.notifyDeployFailed || recipient.banned) return false;
  await ctx.mailer.send(
    deploymentFailedMessage(recipient.email, {
      name: recipient.name,
      siteName: recipient.siteName,
      version: deployment.version,
      error: deployment.error ?? "Deployment failed to complete successfully",
      link: `${ctx.env.appUrl}/dashboard/sites/${change.siteId}`,
    }),
  );
  return true;
}

export interface DeploymentFailureNotices {
  /** Resolves once every notice already under way has been sent (or has failed). */
  settled(): Promise<void>;
  stop(): void;
}

/** Sends a notice for every failed deployment from now on. */
export function watchDeploymentFailures(ctx: NoticeContext & Pick<AppContext, "events" | "foreground">): DeploymentFailureNotices {
  const pending = new Set<Promise<void>>();
  const onDeployment = (change: DeploymentChanged) => {
    // Another node's deployment: that node sends the mail.
    if (change.deployment.status !== "failed" || ctx.events.relaying) return;
    // After the requests under way have their answers (http/foregroundRequests.ts).
    const sending: Promise<void> = ctx.foreground
      .idle()
      .then(() => notifyDeploymentFailed(ctx, change))
      .then(
        () => undefined,
        (error: unknown) =>
          ctx.log.error({ err: error, siteId: change.siteId, deploymentId: change.deployment.id }, "could not send the deployment-failed notice"),
      )
      .finally(() => pending.delete(sending));
    pending.add(sending);
  };
  ctx.events.on("deployment", onDeployment);
  return {
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
    stop() {
      ctx.events.off("deployment", onDeployment);
    },
  };
}
