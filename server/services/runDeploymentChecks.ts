// The worker's publish checks. Each call claims the checks queued by publishes (a lease, as
// webhook deliveries are claimed: one UPDATE … SKIP LOCKED, no transaction held while files are
// read), runs server/check/checkFiles.ts over the deployment's files and writes the result only
// while its lease holds. The deployment is live before its check starts, so a check never delays
// going live; a restart only makes the check run again. Problems found go to the owner's feed.
import { randomUUID } from "node:crypto";
import { CHECK_TEXT, type CheckSummary } from "../../common/checks";
import { checkFiles, type CheckedFile } from "../check/checkFiles";
import type { AppContext } from "../context";
import { claimDueChecks, recordCheckResult, releaseCheck, type ClaimedCheck } from "../db/repositories/deploymentChecks";
import { getDeploymentById, getManifest } from "../db/repositories/deployments";
import { EMPTY_CONFIG, type SiteConfig } from "../siteConfig/siteConfig";
import { notify } from "./notifications/notify";

export type CheckContext = Pick<AppContext, "db" | "blobs" | "events" | "log" | "foreground">;

/** A claimed check is this worker's for this long: a check of the largest site takes seconds. */
export const CHECK_LEASE_MS = 5 * 60_000;
/** A check that failed this often (a blob unreadable, say) is given up, with the reason. */
export const MAX_CHECK_ATTEMPTS = 3;
/** Checks run one after another: each reads files, and the worker shares the process. */
const BATCH = 2;

/** Runs the checks due at `now`, up to BATCH of them. Resolves to how many were claimed. */
export async function runDueChecks(ctx: CheckContext, now = new Date()): Promise<number> {
  const leaseToken = randomUUID();
  const claimed = await claimDueChecks(ctx.db, now, leaseToken, new Date(now.getTime() + CHECK_LEASE_MS), BATCH);
  for (const check of claimed) {
    await ctx.foreground.idle();
    await runCheck(ctx, check).catch(async (error: unknown) => {
      ctx.log.error({ err: error, deploymentId: check.deployment_id }, "publish check failed");
      if (check.attempts >= MAX_CHECK_ATTEMPTS) await finish(ctx, check, failedResult());
      else await releaseCheck(ctx.db, check.deployment_id, check.lease_token);
    });
  }
  return claimed.length;
}

async function runCheck(ctx: CheckContext, check: ClaimedCheck): Promise<void> {
  const rows = await getManifest(ctx.db, check.deployment_id);
  const files: CheckedFile[] = rows.map((r) => ({ path: r.path, sha256: r.sha256, size: r.size, contentType: r.content_type }));
  const config = (check.config as SiteConfig | null) ?? EMPTY_CONFIG;
  const outcome = await checkFiles(files, config.redirects, async (file, maxBytes) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.blobs.get(file.sha256, { start: 0, end: maxBytes - 1 })) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  });
  await finish(ctx, check, {
    status: "done",
    problem_count: outcome.problemCount,
    counts: outcome.counts,
    findings: outcome.findings,
    renames: outcome.renames,
    files_checked: outcome.filesChecked,
    files_partly_checked: outcome.filesPartlyChecked,
    error: null,
    checked_at: new Date(),
  });
}

const failedResult = () => ({
  status: "failed" as const,
  problem_count: 0,
  counts: {},
  findings: [],
  renames: [],
  files_checked: 0,
  files_partly_checked: 0,
  error: CHECK_TEXT.checkFailed,
  checked_at: new Date(),
});

/** Stores the result; then the dashboards hear of it and, when something is wrong, the owner's feed. */
async function finish(ctx: CheckContext, check: ClaimedCheck, result: Parameters<typeof recordCheckResult>[3]): Promise<void> {
  const row = await recordCheckResult(ctx.db, check.deployment_id, check.lease_token, result);
  if (!row) return; // another worker took over after this lease ran out; its result stands
  const deployment = await getDeploymentById(ctx.db, check.deployment_id);
  if (!deployment) return;
  const site = { id: check.site_id, user_id: check.user_id, name: check.site_name, subdomain: check.subdomain };
  const summary: CheckSummary = { status: row.status, problem_count: row.problem_count, counts: row.counts };
  ctx.events.emit("deployment", { userId: site.user_id, siteId: site.id, subdomain: site.subdomain, deployment, check: summary });
  if (row.status !== "done" || row.problem_count === 0) return;
  await notify(ctx, {
    userId: site.user_id,
    kind: "check_problems",
    title: `${site.name}: ${CHECK_TEXT.problems(row.problem_count).toLowerCase()} in version ${deployment.version}`,
    body: noticeBody(row.counts),
    link: `/dashboard/sites/${site.id}?tab=deployments`,
    siteId: site.id,
  });
}

function noticeBody(counts: CheckSummary["counts"]): string {
  const parts = Object.entries(counts).map(([kind, n]) => `${CHECK_TEXT.labels[kind as keyof typeof CHECK_TEXT.labels]}: ${n}`);
  return `${parts.join(" · ")}. The version is live; open its card to see each problem and fix it.`;
}
