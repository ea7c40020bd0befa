// EXPLAIN ANALYZE of the queries behind the dashboard's calls, for bench/api.ts --explain. It runs
// the same repository and service functions the routes call, in this process, on one connection
// with auto_explain loaded and reporting as NOTICEs, so each plan is the one of the exact SQL that
// drizzle sends (parameters included). better-auth's session lookup is not among them.
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "../server/db/client";
import { storageUsedByUser } from "../server/db/repositories/usage";
import { countDeploymentsForUser, listDeploymentsForSite } from "../server/db/repositories/deployments";
import { getPlanIdForUser } from "../server/db/repositories/profiles";
import { listSiteFilesInFolder } from "../server/db/repositories/siteFiles";
import { countSitesForUser, getSiteSummaryForUser, listSitesForUser } from "../server/db/repositories/sites";
import * as schema from "../server/db/schema";
import { bandwidthLast30Days, siteAnalytics, viewsLast7Days } from "../server/services/siteAnalytics";

/** Plans of queries at least this slow are printed whole; the others as one line. */
const PRINT_PLAN_MS = 5;

export async function explainDashboardQueries(url: string, userId: string, siteId: string, folder: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const notices: string[] = [];
  pool.on("connect", (client) => client.on("notice", (notice) => notices.push(notice.message ?? "")));
  try {
    await pool.query("load 'auto_explain'").catch((error: unknown) => {
      throw new Error(`--explain needs auto_explain and a superuser connection: ${String(error)}`);
    });
    await pool.query("set auto_explain.log_min_duration = 0");
    await pool.query("set auto_explain.log_analyze = on");
    await pool.query("set auto_explain.log_buffers = on");
    await pool.query("set auto_explain.log_level = notice");
    const db = drizzle(pool, { schema }) as unknown as Db;
    const now = new Date();
    const calls: Array<[string, () => Promise<unknown>]> = [
      [
        "GET /api/stats",
        () =>
          Promise.all([
            getPlanIdForUser(db, userId),
            countSitesForUser(db, userId),
            countDeploymentsForUser(db, userId),
            storageUsedByUser(db, userId),
            bandwidthLast30Days(db, userId, now),
          ]),
      ],
      ["GET /api/sites", () => Promise.all([listSitesForUser(db, userId), viewsLast7Days(db, userId, now)])],
      ["GET /api/sites/:id (and the site check of every call below)", () => getSiteSummaryForUser(db, userId, siteId)],
      [`GET /api/sites/:id/files?parent=${folder}`, () => listSiteFilesInFolder(db, siteId, folder)],
      ["GET /api/sites/:id/deployments", () => listDeploymentsForSite(db, siteId)],
      ["GET /api/sites/:id/analytics?range=30d", () => siteAnalytics(db, siteId, "30d", now, false)],
    ];
    const out = ["", "## EXPLAIN ANALYZE (auto_explain) of the calls' queries, second run of each (warm cache)", ""];
    for (const [label, call] of calls) {
      await call();
      notices.length = 0;
      await call();
      out.push(`### ${label}`, "");
      for (const notice of notices) {
        const match = /^duration: ([\d.]+) ms\s+plan:\n([\s\S]*)$/.exec(notice);
        if (!match) continue;
        const ms = Number(match[1]);
        const text = /Query Text: ([\s\S]*?)\n\s*(?:Query Parameters|[A-Z][a-z]+.*\(cost)/.exec(match[2]!)?.[1]?.replace(/\s+/g, " ").trim() ?? "";
        out.push(`- ${ms.toFixed(2)} ms: \`${text.slice(0, 160)}${text.length > 160 ? "…" : ""}\``);
        if (ms >= PRINT_PLAN_MS) out.push("", "```", match[2]!.trimEnd(), "```", "");
      }
      out.push("");
    }
    return out.join("\n");
  } finally {
    await pool.end();
  }
}
