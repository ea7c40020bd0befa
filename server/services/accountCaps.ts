// The caps on how many sites, custom domains and share links one account holds (common/limits.ts
// has the defaults and why; BERTH_MAX_* the operator's values). Each add checks its cap inside
// its own transaction, under the account's cap lock, after counting what is already there.
import { CAP_TEXT, type AccountCaps } from "../../common/limits";
import type { Executor } from "../db/client";
import { lockAccountCaps } from "../db/repositories/accountCaps";
import { AppError } from "../errors";

export type CapKind = keyof AccountCaps;

const REFUSAL: Record<CapKind, { code: string; text: (max: number) => string }> = {
  sitesPerAccount: { code: "site_limit_reached", text: CAP_TEXT.sites },
  customDomainsPerAccount: { code: "domain_limit_reached", text: CAP_TEXT.customDomains },
  shareLinksPerSite: { code: "share_link_limit_reached", text: CAP_TEXT.shareLinks },
  apiTokensPerAccount: { code: "api_token_limit_reached", text: CAP_TEXT.apiTokens },
  webhooksPerAccount: { code: "webhook_limit_reached", text: CAP_TEXT.webhooks },
};

/** The refusal of an add over the cap: 409, naming the cap. */
export function capReached(caps: AccountCaps, kind: CapKind): AppError {
  const { code, text } = REFUSAL[kind];
  return new AppError(code, 409, text(caps[kind]));
}

/**
 * Refuses when `count` is already at the cap. Inside a transaction (`tx`), the account's cap lock
 * is taken first and held until commit, so the caller's insert that follows is part of the same
 * step; outside one it is only an early answer, made before costly work such as an upload.
 */
export async function requireRoom(
  tx: Executor,
  caps: AccountCaps,
  kind: CapKind,
  userId: string,
  count: (db: Executor) => Promise<number>,
  options: { locked: boolean } = { locked: true },
): Promise<void> {
  if (options.locked) await lockAccountCaps(tx, userId);
  if ((await count(tx)) >= caps[kind]) throw capReached(caps, kind);
}
