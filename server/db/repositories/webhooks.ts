// Webhooks: the owner's endpoints, and their deliveries, each a durable sending job whose state is
// the row (status, attempts, next_attempt_at, the lease), as custom domains' provisioning is.
import { and, desc, eq, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { WebhookDeliveryStatus, WebhookDeliveryType, WebhookEvent } from "../../../common/webhooks";
import type { Executor } from "../client";
import { sites, webhookDeliveries, webhookEndpoints } from "../schema";

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/** An endpoint as its owner's list shows it: the one site it covers (null: all), and its newest delivery. */
export type WebhookEndpointWithSite = WebhookEndpoint & {
  site: { id: string; name: string; subdomain: string } | null;
  last_delivery: WebhookDelivery | null;
};

const siteColumns = { id: sites.id, name: sites.name, subdomain: sites.subdomain };

/**
 * The owner's endpoints, newest first; `siteId` set (a one-site API token): only that site's.
 * Each with its newest delivery, from one more query.
 */
export async function listWebhookEndpointsForUser(db: Executor, userId: string, siteId: string | null): Promise<WebhookEndpointWithSite[]> {
  const rows = await db
    .select({ endpoint: webhookEndpoints, site: siteColumns })
    .from(webhookEndpoints)
    .leftJoin(sites, and(eq(sites.id, webhookEndpoints.site_id), eq(sites.user_id, userId)))
    .where(and(eq(webhookEndpoints.user_id, userId), siteId === null ? undefined : eq(webhookEndpoints.site_id, siteId)))
    .orderBy(desc(webhookEndpoints.created_at), desc(webhookEndpoints.id));
  const last = await lastDeliveries(
    db,
    rows.map((row) => row.endpoint.id),
  );
  return rows.map(({ endpoint, site }) => ({ ...endpoint, site, last_delivery: last.get(endpoint.id) ?? null }));
}

async function lastDeliveries(db: Executor, endpointIds: string[]): Promise<Map<string, WebhookDelivery>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([webhookDeliveries.endpoint_id])
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpoint_id, endpointIds))
    .orderBy(webhookDeliveries.endpoint_id, desc(webhookDeliveries.created_at), desc(webhookDeliveries.id));
  return new Map(rows.map((row) => [row.endpoint_id, row]));
}

/** One of the owner's endpoints; `siteId` set (a one-site API token): only if it is that site's. */
export async function getWebhookEndpointForUser(
  db: Executor,
  userId: string,
  endpointId: string,
  siteId: string | null,
): Promise<WebhookEndpointWithSite | undefined> {
  const [row] = await db
    .select({ endpoint: webhookEndpoints, site: siteColumns })
    .from(webhookEndpoints)
    .leftJoin(sites, and(eq(sites.id, webhookEndpoints.site_id), eq(sites.user_id, userId)))
    .where(
      and(
        eq(webhookEndpoints.id, endpointId),
        eq(webhookEndpoints.user_id, userId),
        siteId === null ? undefined : eq(webhookEndpoints.site_id, siteId),
      ),
    );
  if (!row) return undefined;
  const last = await lastDeliveries(db, [endpointId]);
  return { ...row.endpoint, site: row.site, last_delivery: last.get(endpointId) ?? null };
}

/** Every endpoint of the user, enabled or not: what the cap counts. */
export async function countWebhookEndpointsForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.user_id, userId));
  return Number(row?.n ?? 0);
}

export async function insertWebhookEndpoint(
  db: Executor,
  values: { user_id: string; site_id: string | null; url: string; events: WebhookEvent[]; secret_encrypted: string },
): Promise<WebhookEndpoint> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateWebhookEndpointForUser(
  db: Executor,
  userId: string,
  endpointId: string,
  changes: Partial<Pick<WebhookEndpoint, "url" | "events" | "enabled">>,
  now: Date,
): Promise<WebhookEndpoint | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...changes, updated_at: now })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.user_id, userId)))
    .returning();
  return row;
}

/** Deletes one of the owner's endpoints and, by cascade, its deliveries; false when there was none. */
export async function deleteWebhookEndpointForUser(db: Executor, userId: string, endpointId: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.user_id, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** The enabled endpoints of `userId` that want `type` for `siteId` (bound to it, or to all sites). */
export async function endpointsForEvent(db: Executor, userId: string, siteId: string, type: WebhookEvent): Promise<{ id: string }[]> {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.user_id, userId),
        eq(webhookEndpoints.enabled, true),
        or(isNull(webhookEndpoints.site_id), eq(webhookEndpoints.site_id, siteId)),
        sql`${type} = any(${webhookEndpoints.events})`,
      ),
    );
}

export interface NewDelivery {
  id: string;
  endpoint_id: string;
  type: WebhookDeliveryType;
  payload: unknown;
  next_attempt_at: Date;
  retry_until: Date;
  created_at: Date;
}

export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

/** An endpoint's newest deliveries. */
export async function listDeliveriesForEndpoint(db: Executor, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpoint_id, endpointId))
    .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * A delivery sent again, as asked by its owner: pending and due at `now`, its tries counted anew
 * until `retryUntil`. Not while a worker holds it (the lease), so one send at a time holds;
 * undefined then, or when the endpoint has no such delivery.
 */
export async function requeueDelivery(
  db: Executor,
  endpointId: string,
  deliveryId: string,
  now: Date,
  retryUntil: Date,
): Promise<WebhookDelivery | "in_flight" | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, next_attempt_at: now, retry_until: retryUntil, delivered_at: null, lease_token: null, leased_until: null })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpoint_id, endpointId),
        or(isNull(webhookDeliveries.leased_until), lte(webhookDeliveries.leased_until, now)),
      ),
    )
    .returning();
  if (row) return row;
  const [held] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpoint_id, endpointId)));
  return held ? "in_flight" : undefined;
}

/** Ends an endpoint's pending deliveries (it was disabled): no worker claims them again, and a send under way writes nothing. */
export async function failPendingDeliveries(db: Executor, endpointId: string, error: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed", next_attempt_at: null, last_error: error, lease_token: null, leased_until: null })
    .where(and(eq(webhookDeliveries.endpoint_id, endpointId), eq(webhookDeliveries.status, "pending")));
}

/** A claimed delivery with what sending it needs from its endpoint. */
export type ClaimedDelivery = WebhookDelivery & { url: string; secret_encrypted: string; lease_token: string };

/**
 * Takes up to `limit` due deliveries of enabled endpoints for this worker alone: each gets
 * `leaseToken` until `leasedUntil`, the token its result is written back with. Rows another
 * worker is claiming are skipped (SKIP LOCKED); one whose worker died is due again when its lease
 * runs out. Only pending rows: a delivered one is never claimed again.
 */
export async function claimDueDeliveries(db: Executor, now: Date, leaseToken: string, leasedUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.next_attempt_at, now),
        or(isNull(webhookDeliveries.leased_until), lte(webhookDeliveries.leased_until, now)),
        eq(webhookEndpoints.enabled, true),
      ),
    )
    .orderBy(webhookDeliveries.next_attempt_at)
    .limit(limit)
    .for("update", { of: webhookDeliveries, skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ lease_token: leaseToken, leased_until: leasedUntil })
    .where(and(inArray(webhookDeliveries.id, due), eq(webhookDeliveries.status, "pending")))
    .returning();
  if (claimed.length === 0) return [];
  const endpoints = await db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secret_encrypted: webhookEndpoints.secret_encrypted })
    .from(webhookEndpoints)
    .where(
      inArray(
        webhookEndpoints.id,
        claimed.map((d) => d.endpoint_id),
      ),
    );
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  return claimed.flatMap((delivery) => {
    const endpoint = byId.get(delivery.endpoint_id);
    return endpoint ? [{ ...delivery, url: endpoint.url, secret_encrypted: endpoint.secret_encrypted, lease_token: leaseToken }] : [];
  });
}

export type DeliveryOutcome = {
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_response_ms: number | null;
  last_error: string | null;
  delivered_at: Date | null;
};

/**
 * Writes an attempt's outcome and lets the lease go, only while the claim still holds: a
 * redelivery, a disabling or a deletion in the meantime wins, and the outcome is dropped (undefined).
 */
export async function recordDeliveryAttempt(
  db: Executor,
  deliveryId: string,
  leaseToken: string,
  outcome: DeliveryOutcome,
): Promise<WebhookDelivery | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ ...outcome, lease_token: null, leased_until: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.lease_token, leaseToken)))
    .returning();
  return row;
}

/** Deletes finished deliveries created before `before`; pending ones stay until they finish. */
export async function pruneWebhookDeliveries(db: Executor, before: Date): Promise<void> {
  await db.delete(webhookDeliveries).where(and(ne(webhookDeliveries.status, "pending"), lt(webhookDeliveries.created_at, before)));
}
