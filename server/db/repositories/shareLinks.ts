import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { shareLinkOpens, shareLinks } from "../schema";

export type ShareLink = typeof shareLinks.$inferSelect;
export type ShareLinkOpenRow = typeof shareLinkOpens.$inferSelect;

/** The owner's links of one site, newest first. */
export async function listShareLinksForSite(db: Executor, userId: string, siteId: string): Promise<ShareLink[]> {
  return db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.site_id, siteId), eq(shareLinks.user_id, userId)))
    .orderBy(desc(shareLinks.created_at), desc(shareLinks.id));
}

export async function getShareLinkForUser(db: Executor, userId: string, siteId: string, linkId: string): Promise<ShareLink | undefined> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, linkId), eq(shareLinks.site_id, siteId), eq(shareLinks.user_id, userId)));
  return row;
}

/** Every link of the site, revoked ones too (they can be restored): what the cap counts. */
export async function countShareLinksForSite(db: Executor, siteId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shareLinks)
    .where(eq(shareLinks.site_id, siteId));
  return Number(row?.n ?? 0);
}

export async function insertShareLink(
  db: Executor,
  values: { site_id: string; user_id: string; name: string; expires_at: Date | null; password_hash: string | null; max_views: number | null },
): Promise<ShareLink> {
  const [row] = await db.insert(shareLinks).values(values).returning();
  return row!;
}

/** Renames, revokes (a time) or restores (null) one of the owner's links. */
export async function updateShareLinkForUser(
  db: Executor,
  userId: string,
  siteId: string,
  linkId: string,
  values: { name?: string; revoked_at?: Date | null },
): Promise<ShareLink | undefined> {
  const [row] = await db
    .update(shareLinks)
    .set(values)
    .where(and(eq(shareLinks.id, linkId), eq(shareLinks.site_id, siteId), eq(shareLinks.user_id, userId)))
    .returning();
  return row;
}

/** Deletes one of the owner's links with its access log (cascade); false when there was none. */
export async function deleteShareLinkForUser(db: Executor, userId: string, siteId: string, linkId: string): Promise<boolean> {
  const rows = await db
    .delete(shareLinks)
    .where(and(eq(shareLinks.id, linkId), eq(shareLinks.site_id, siteId), eq(shareLinks.user_id, userId)))
    .returning({ id: shareLinks.id });
  return rows.length > 0;
}

/** The latest opens of one of the owner's links, newest first. */
export async function listShareLinkOpensForUser(
  db: Executor,
  userId: string,
  siteId: string,
  linkId: string,
  limit: number,
): Promise<ShareLinkOpenRow[]> {
  return db
    .select({
      id: shareLinkOpens.id,
      link_id: shareLinkOpens.link_id,
      opened_at: shareLinkOpens.opened_at,
      country: shareLinkOpens.country,
      user_agent: shareLinkOpens.user_agent,
    })
    .from(shareLinkOpens)
    .innerJoin(shareLinks, eq(shareLinks.id, shareLinkOpens.link_id))
    .where(and(eq(shareLinkOpens.link_id, linkId), eq(shareLinks.site_id, siteId), eq(shareLinks.user_id, userId)))
    .orderBy(desc(shareLinkOpens.opened_at), desc(shareLinkOpens.id))
    .limit(limit);
}

/** The edge's read of a link named by a token: only when it belongs to the site being served. */
export async function getShareLinkOfSite(db: Executor, siteId: string, linkId: string): Promise<ShareLink | undefined> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, linkId), eq(shareLinks.site_id, siteId)));
  return row;
}

/** What the edge keeps per host to check share cookies without a query. */
export async function listShareLinkAccess(
  db: Executor,
  siteId: string,
): Promise<Array<{ id: string; expires_at: Date | null; revoked_at: Date | null }>> {
  return db
    .select({ id: shareLinks.id, expires_at: shareLinks.expires_at, revoked_at: shareLinks.revoked_at })
    .from(shareLinks)
    .where(eq(shareLinks.site_id, siteId));
}

/** What counting an open found: refused (the link was not open), or counted and whether that was its last view. */
export type ShareLinkOpenCount = { counted: false } | { counted: true; usedUp: boolean };

/**
 * Counts one open and logs it, in one statement: the count goes up only while the link is
 * neither revoked, expired nor out of views, so two browsers racing for the last view cannot
 * both get it, and exactly one open is the one that used the link up.
 */
export async function countShareLinkOpen(
  db: Executor,
  siteId: string,
  linkId: string,
  open: { at: Date; userAgent: string | null; country: string | null },
): Promise<ShareLinkOpenCount> {
  const at = open.at.toISOString();
  const result = await db.execute(sql`
    with counted as (
      update share_links set views = views + 1
      where id = ${linkId} and site_id = ${siteId} and revoked_at is null
        and (expires_at is null or expires_at > ${at}::timestamptz)
        and (max_views is null or views < max_views)
      returning id, max_views is not null and views >= max_views as used_up
    ), logged as (
      insert into share_link_opens (link_id, opened_at, country, user_agent)
      select id, ${at}::timestamptz, ${open.country}, ${open.userAgent} from counted
    )
    select used_up from counted`);
  const row = rowsOf<{ used_up: boolean }>(result)[0];
  return row ? { counted: true, usedUp: row.used_up } : { counted: false };
}
