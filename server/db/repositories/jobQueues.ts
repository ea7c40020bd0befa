// How much work the worker's queues hold. Each queue is a table whose rows are its jobs
// (webhook_deliveries, deployment_checks, domains: claimed with SKIP LOCKED, see server/db/README.md),
// so "waiting" and "failed" are counts of rows by status. Read when the metrics are scraped.
import { sql } from "drizzle-orm";
import type { JobQueue } from "../../../common/metrics";
import type { Executor } from "../client";
import { rowsOf } from "../rows";

export interface QueueCounts {
  queue: JobQueue;
  /** Not done yet: due now, or waiting for a retry or the next step. */
  waiting: number;
  /** Given up on, and still on record. */
  failed: number;
}

/** One statement for every queue: a scrape costs one round trip (and, on PGlite, one turn of the serving thread). */
export async function countQueuedJobs(db: Executor): Promise<QueueCounts[]> {
  const result = await db.execute(sql`
    select 'webhook_deliveries' as queue,
      count(*) filter (where status = 'pending') as waiting,
      count(*) filter (where status = 'failed') as failed
      from webhook_deliveries
    union all
    select 'deployment_checks',
      count(*) filter (where status = 'pending'),
      count(*) filter (where status = 'failed')
      from deployment_checks
    union all
    select 'custom_domains',
      count(*) filter (where status in ('pending', 'dns_check', 'certificate')),
      count(*) filter (where status = 'failed')
      from domains`);
  return rowsOf<{ queue: JobQueue; waiting: string | number; failed: string | number }>(result).map((row) => ({
    queue: row.queue,
    waiting: Number(row.waiting),
    failed: Number(row.failed),
  }));
}
