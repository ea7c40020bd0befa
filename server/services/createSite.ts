// The wizard's submit: the site, its reserved subdomain and its content are recorded in one
// transaction, then version 1 is published. If the upload is refused, nothing is created; if
// publishing fails, the site is kept (pending) with its files, so the user loses no work and can
// deploy again from the site's page.
import type { AppContext } from "../context";
import { countSitesForUser, insertSite, type Site } from "../db/repositories/sites";
import type { Tx } from "../db/client";
import { assignReservedSubdomain, claimSubdomain } from "../db/repositories/subdomains";
import { AppError } from "../errors";
import { requireRoom } from "./accountCaps";
import { publishDeployment } from "./publishDeployment";
import { commitStagedFiles } from "./commitFiles";
import type { StagedUpload } from "./stageUpload";
import { SITE_TEXT, type CreateSiteFields } from "../../common/sites";
import { ensureSubdomainPool } from "./subdomainPool";

type SiteFields = Pick<CreateSiteFields, "name" | "description">;

/** An early refusal at the cap, before the upload is received; createSite checks again under the lock. */
export async function requireRoomForSite(ctx: Pick<AppContext, "db" | "env">, userId: string): Promise<void> {
  await requireRoom(ctx.db, ctx.env.caps, "sitesPerAccount", userId, (db) => countSitesForUser(db, userId), { locked: false });
}

export async function createSite(
  ctx: AppContext,
  input: { userId: string; fields: CreateSiteFields; staged: StagedUpload; quotaBytes: number; note: string },
): Promise<{ site: Site; published: boolean }> {
  let site: Site;
  try {
    site = await ctx.db.transaction(async (tx) => {
      const created = await insertSiteWithSubdomain(tx, ctx, input.userId, input.fields, input.fields.subdomain);
      await commitStagedFiles(tx, { userId: input.userId, siteId: created.id, parent: null, staged: input.staged, quotaBytes: input.quotaBytes });
      return created;
    });
  } catch (error) {
    await input.staged.discard();
    if (isUniqueViolation(error)) throw new AppError("subdomain_not_reserved", 409, SITE_TEXT.subdomainRequiredDescription);
    throw error;
  }
  try {
    await publishDeployment(ctx, site, input.note);
    return { site, published: true };
  } catch {
    return { site, published: false };
  }
}

/**
 * A site with no files yet (status pending), for a first deploy through the API. On the user's
 * reservation when `subdomain` names one (the wizard, before it deploys a dropped folder), else
 * on a name taken from the pool as a reservation would be, in the same transaction, so a refusal
 * (the sites cap) leaves the name in the pool.
 */
export async function createEmptySite(ctx: AppContext, userId: string, fields: SiteFields & { subdomain?: string | undefined }): Promise<Site> {
  const reserved = fields.subdomain;
  if (reserved !== undefined) {
    try {
      return await ctx.db.transaction((tx) => insertSiteWithSubdomain(tx, ctx, userId, fields, reserved));
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("subdomain_not_reserved", 409, SITE_TEXT.subdomainRequiredDescription);
      throw error;
    }
  }
  await ensureSubdomainPool(ctx.db);
  return ctx.db.transaction(async (tx) => {
    const subdomain = await claimSubdomain(tx, userId);
    if (!subdomain) throw new AppError("no_subdomains", 503, SITE_TEXT.noSubdomains);
    return insertSiteWithSubdomain(tx, ctx, userId, fields, subdomain);
  });
}

/** The site row, bound to the user's reservation of `subdomain`; the caller's transaction has checked the cap. */
async function insertSiteWithSubdomain(tx: Tx, ctx: Pick<AppContext, "env">, userId: string, fields: SiteFields, subdomain: string): Promise<Site> {
  // Storage does not bound sites (identical files are stored once), the account's cap does.
  await requireSiteRoom(tx, ctx, userId);
  const created = await insertSite(tx, { name: fields.name, description: fields.description || null, user_id: userId, subdomain });
  const bound = await assignReservedSubdomain(tx, userId, subdomain, created.id);
  if (!bound) throw new AppError("subdomain_not_reserved", 409, SITE_TEXT.subdomainRequiredDescription);
  return created;
}

const requireSiteRoom = (tx: Tx, ctx: Pick<AppContext, "env">, userId: string) =>
  requireRoom(tx, ctx.env.caps, "sitesPerAccount", userId, (db) => countSitesForUser(db, userId));

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}
