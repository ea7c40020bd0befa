// The notices that follow events, wired once per process by compose.ts: a deployment's outcome
// (the feed's notice, and the failure mail of notifyDeploymentFailed.ts), storage thresholds
// after anything that changes a site's files, share links used up at the edge, and the e-mail
// of notices whose owner chose that channel. Each runs on the node where the change happened:
// events relayed from other nodes are skipped, as that node has done the work. Nothing here
// delays the change itself: each notice waits until the requests under way have their answers
// (http/foregroundRequests.ts), so its statements do not queue between theirs. A failure is logged.
import type { AppContext } from "../../context";
import type { DeploymentChanged, SiteChanged } from "../../events";
import { watchDeploymentFailures } from "../notifyDeploymentFailed";
import { checkStorageNotice } from "./accountNotices";
import { sendNoticeMail } from "./noticeMail";
import type { Notice } from "./notify";
import { noticeDeployment, noticeShareLinkUsedUp } from "./siteNotices";

type WatchContext = Pick<AppContext, "db" | "plans" | "events" | "mailer" | "env" | "log" | "foreground">;

export interface NoticeWatch {
  /** The edge's hook: an open just spent a share link's last view. */
  shareLinkUsedUp(used: { siteId: string; linkId: string }): void;
  /** Resolves once every notice and mail already under way is done (or has failed). */
  settled(): Promise<void>;
  stop(): void;
}

export function watchNotices(ctx: WatchContext): NoticeWatch {
  const failureMail = watchDeploymentFailures(ctx);
  const pending = new Set<Promise<void>>();
  const track = (what: string, work: () => Promise<unknown>) => {
    const running: Promise<void> = ctx.foreground
      .idle()
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => ctx.log.error({ err: error }, `could not send the ${what} notice`),
      )
      .finally(() => pending.delete(running));
    pending.add(running);
  };

  // A burst of publishes checks storage once more after the check under way, not once each. A
  // check that has not begun reading yet covers what asks before it does: a publish emits both a
  // deployment and a site event, and one check after them is enough.
  const storageChecks = new Map<string, { again: boolean; reading: boolean }>();
  const checkStorage = (userId: string) => {
    const running = storageChecks.get(userId);
    if (running) {
      if (running.reading) running.again = true;
      return;
    }
    const state = { again: false, reading: false };
    storageChecks.set(userId, state);
    track("storage", async () => {
      try {
        do {
          state.again = false;
          state.reading = true;
          await checkStorageNotice(ctx, userId);
        } while (state.again);
      } finally {
        storageChecks.delete(userId);
      }
    });
  };

  const onDeployment = (change: DeploymentChanged) => {
    // The publish check's result arrives as a deployment event too; it is not a new deploy.
    if (ctx.events.relaying || change.check) return;
    const { status } = change.deployment;
    if (status !== "success" && status !== "failed") return;
    track("deployment", () => noticeDeployment(ctx, change.siteId, change.deployment));
    checkStorage(change.userId);
  };
  // Publishes, rollbacks, pruned history and purged sites all change what the account stores.
  const onSite = (change: SiteChanged) => {
    if (!ctx.events.relaying) checkStorage(change.userId);
  };
  const onNoticeMail = (notice: Notice) => {
    if (!ctx.events.relaying) track(`${notice.kind} mail`, () => sendNoticeMail(ctx, notice));
  };
  ctx.events.on("deployment", onDeployment);
  ctx.events.on("site", onSite);
  ctx.events.on("noticeMail", onNoticeMail);

  return {
    shareLinkUsedUp(used) {
      track("share link", () => noticeShareLinkUsedUp(ctx, used));
    },
    async settled() {
      while (pending.size > 0) {
        await Promise.all(pending);
        await failureMail.settled();
      }
      await failureMail.settled();
    },
    stop() {
      failureMail.stop();
      ctx.events.off("deployment", onDeployment);
      ctx.events.off("site", onSite);
      ctx.events.off("noticeMail", onNoticeMail);
    },
  };
}
