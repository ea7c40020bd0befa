// Rows the product never reads or writes this way, which tests need: analytics seeded as the
// `analytics_events` view shows them, and every file row of a site at once.
import { eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { insertAnalyticsBatches, type AnalyticsBatch, type AnalyticsEntry } from "../db/repositories/analytics";
import type { SiteFile } from "../db/repositories/siteFiles";
import { siteFiles } from "../db/schema";

/** An entry with its site and minute, as the `analytics_events` view shows it. */
export interface AnalyticsEventRow extends AnalyticsEntry {
  site_id: string;
  /** The minute, ISO. */
  at: string;
}

/** Rows as the view shows them, written as one batch per site and minute, as the edge writes them. */
export async function insertAnalyticsEvents(db: Executor, rows: readonly AnalyticsEventRow[]): Promise<void> {
  const batches = new Map<string, AnalyticsBatch>();
  for (const { site_id, at, ...entry } of rows) {
    const key = `${site_id} ${at}`;
    let batch = batches.get(key);
    if (batch === undefined) batches.set(key, (batch = { site_id, at, events: [] }));
    batch.events.push(entry);
  }
  await insertAnalyticsBatches(db, [...batches.values()]);
}

export async function listAllSiteFiles(db: Executor, siteId: string): Promise<SiteFile[]> {
  return db.select().from(siteFiles).where(eq(siteFiles.site_id, siteId));
}
