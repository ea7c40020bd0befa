import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { ApiTokenPermission } from "../../../common/apiTokens";
import type { Executor } from "../client";
import { apiTokens, profiles, sites, users } from "../schema";

export type ApiToken = typeof apiTokens.$inferSelect;

/** A token with the one site it covers (null: all the owner's sites), as the owner's list shows it. */
export type ApiTokenWithSite = ApiToken & { site: { id: string; name: string; subdomain: string } | null };

const siteColumns = { id: sites.id, name: sites.name, subdomain: sites.subdomain };

/** The owner's tokens that are not revoked, newest first. Expired ones stay, so the owner sees why a job stopped. */
export async function listActiveApiTokensForUser(db: Executor, userId: string): Promise<ApiTokenWithSite[]> {
  const rows = await db
    .select({ token: apiTokens, site: siteColumns })
    .from(apiTokens)
    .leftJoin(sites, and(eq(sites.id, apiTokens.site_id), eq(sites.user_id, userId)))
    .where(and(eq(apiTokens.user_id, userId), isNull(apiTokens.revoked_at)))
    .orderBy(desc(apiTokens.created_at), desc(apiTokens.id));
  return rows.map(({ token, site }) => ({ ...token, site }));
}

/** The owner's tokens that are not revoked: what the cap counts (a revoked token never comes back). */
export async function countActiveApiTokensForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiTokens)
    .where(and(eq(apiTokens.user_id, userId), isNull(apiTokens.revoked_at)));
  return Number(row?.n ?? 0);
}

export async function insertApiToken(
  db: Executor,
  values: {
    user_id: string;
    name: string;
    token_hash: string;
    prefix: string;
    permission: ApiTokenPermission;
    site_id: string | null;
    expires_at: Date | null;
  },
): Promise<ApiToken> {
  const [row] = await db.insert(apiTokens).values(values).returning();
  return row!;
}

/** Revokes one of the owner's tokens that is not revoked yet; false when there was none. */
export async function revokeApiTokenForUser(db: Executor, userId: string, tokenId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revoked_at: at })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.user_id, userId), isNull(apiTokens.revoked_at)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** A token as a request presents it, with its owner and whether the owner is banned. */
export interface PresentedApiToken {
  token: ApiToken;
  user: { id: string; email: string; name: string; createdAt: Date; updatedAt: Date; twoFactorEnabled: boolean | null };
  banned: boolean;
}

/**
 * The token whose secret hashes to `tokenHash`, with its owner, in one query. The one lookup not
 * scoped by an owner: the secret is what proves who the owner is. Revoked tokens are returned too;
 * the caller refuses them.
 */
export async function getApiTokenByHash(db: Executor, tokenHash: string): Promise<PresentedApiToken | undefined> {
  const [row] = await db
    .select({
      token: apiTokens,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
        twoFactorEnabled: users.twoFactorEnabled,
      },
      bannedAt: profiles.banned_at,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .leftJoin(profiles, eq(profiles.id, apiTokens.user_id))
    .where(eq(apiTokens.token_hash, tokenHash));
  return row ? { token: row.token, user: row.user, banned: row.bannedAt !== null } : undefined;
}

/**
 * Records a use of the token, unless one was recorded after `since`: requests in the same minute
 * then share one write, and two nodes racing both test the same condition in the update itself.
 */
export async function recordApiTokenUse(db: Executor, tokenId: string, at: Date, ip: string, since: Date): Promise<void> {
  await db
    .update(apiTokens)
    .set({ last_used_at: at, last_used_ip: ip })
    .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.last_used_at), lt(apiTokens.last_used_at, since))));
}
