// The pool of ready-made subdomains (table available_subdomains): refilled by 100 names
// whenever fewer than 40 are free, claimed one at a time and atomically.
import type { Db } from "../db/client";
import {
  claimSubdomain,
  countAvailableSubdomains,
  getReservationForUser,
  insertAvailableSubdomains,
  releaseStaleReservations,
  takenSubdomains,
} from "../db/repositories/subdomains";
import { AppError } from "../errors";
import { freshSubdomains } from "./subdomainNames";
import { SITE_TEXT } from "../../common/sites";

export const POOL_LOW_WATER = 40;
export const POOL_REFILL = 100;
/** A name reserved by the wizard and never used goes back to the pool after this long. */
export const RESERVATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Tops the pool up when it runs low. Returns how many names were added. */
export async function ensureSubdomainPool(db: Db): Promise<number> {
  if ((await countAvailableSubdomains(db)) >= POOL_LOW_WATER) return 0;
  const taken = await takenSubdomains(db);
  return insertAvailableSubdomains(db, freshSubdomains(POOL_REFILL, taken));
}

/**
 * The subdomain the wizard shows: the user's unused reservation if they have one (a reload of the
 * wizard keeps its name), else a newly claimed one.
 */
export async function reserveSubdomain(db: Db, userId: string): Promise<string> {
  const existing = await getReservationForUser(db, userId);
  if (existing) return existing;
  let claimed = await claimSubdomain(db, userId);
  if (!claimed) {
    await ensureSubdomainPool(db);
    claimed = await claimSubdomain(db, userId);
  }
  if (!claimed) throw new AppError("no_subdomains", 503, SITE_TEXT.noSubdomains, undefined);
  await ensureSubdomainPool(db);
  return claimed;
}

export async function releaseStaleSubdomainReservations(db: Db, now = new Date()): Promise<number> {
  return releaseStaleReservations(db, new Date(now.getTime() - RESERVATION_TTL_MS));
}
