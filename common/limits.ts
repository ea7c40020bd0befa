// Limits shared by the server and the dashboard. The numbers live here and nowhere else.

import { formatCount } from "./format";

/** Shown as a hint on the sign-up form and enforced by the server. */
export const PASSWORD_MIN_LENGTH = 8;

/** Rate limits of the auth endpoints, per client address: `max` requests per `window` seconds. */
export const AUTH_LIMITS = {
  signIn: { window: 60, max: 10 },
  signUp: { window: 10 * 60, max: 10 },
  reset: { window: 10 * 60, max: 5 },
} as const;

/**
 * Two-factor codes checked (authenticator and backup codes together), per client address: `max`
 * attempts per `window` seconds.
 */
export const TWO_FACTOR_VERIFY_LIMIT = { window: 5 * 60, max: 10 } as const;

/**
 * The same checks for one account's sign-in challenges, from any address: many addresses, each
 * within its own limit, must not add up to more guesses at one account's codes. A right code
 * gives its attempt back. better-auth's own lockout (wrong codes in a row) uses these numbers too.
 */
export const TWO_FACTOR_ACCOUNT_LIMIT = { window: 15 * 60, max: 10 } as const;

/** The contact form: messages per client address per hour. */
export const CONTACT_LIMIT = { window: 60 * 60, max: 5 } as const;

export const CONTACT_FIELD_MAX = { name: 100, email: 254, subject: 200, message: 5000 } as const;

/** Wrong site passwords on the edge's password page, per site and client address. */
export const SITE_PASSWORD_LIMIT = { window: 5 * 60, max: 10 } as const;

/**
 * Requests per API token, from any address. Far above what a deploy makes (its files are sent in
 * one upload), and a bound on what a leaked token can cost before it is revoked.
 */
export const API_TOKEN_LIMIT = { window: 60, max: 600 } as const;

/**
 * Unknown API tokens, per client address. Counted per address, not per guessed token, so made-up
 * tokens cannot add a counter each: the counters stay bounded by the addresses and the real tokens.
 */
export const API_TOKEN_MISS_LIMIT = { window: 60, max: 30 } as const;

/**
 * Sign-in requests of the `berth` CLI (POST /api/cli/login), per client address: each one holds a
 * row for ten minutes and a code someone might be shown, and a person needs a few.
 */
export const DEVICE_LOGIN_START_LIMIT = { window: 10 * 60, max: 10 } as const;

/**
 * Codes of CLI sign-in requests that match none the user may see, per user, from any address: the
 * approval page is the one place a code can be guessed. A code that is found gives its attempt back.
 */
export const DEVICE_CODE_GUESS_LIMIT = { window: 10 * 60, max: 10 } as const;

/** Wrong share-link passwords, per link and client address. */
export const SHARE_LINK_PASSWORD_LIMIT = { window: 5 * 60, max: 10 } as const;

/**
 * How many of each thing one account may hold, so that one account cannot fill the database or
 * queue unbounded background work. The operator can change each (server/env.ts); these are the
 * defaults. Sized far above what a person or an agency uses and well below what would hurt a
 * server:
 * - sites per account, 1,000: each site holds a subdomain from the pool, rows and a host entry in
 *   the edge's cache, and storage alone does not bound them (identical files are stored once).
 * - custom domains per account, 100: each one queues DNS checks (up to 10 per step) and a TLS
 *   certificate, and certificate authorities limit the orders one server may place.
 * - share links per site, 100: the edge keeps every link's expiry and revocation in the site's
 *   cached host entry, to check share cookies without a query.
 * - API tokens per account, 50: a person needs one per machine or CI job; each is a row looked up
 *   on every request it makes.
 * - webhooks per account, 20: each event is one delivery per matching webhook, sent and retried
 *   by the worker for up to a day, so the count multiplies the outgoing requests of every deploy.
 * Deleted sites count until they are purged, and revoked share links until they are deleted:
 * their rows are still there and can come back.
 */
export const DEFAULT_CAPS = {
  sitesPerAccount: 1_000,
  customDomainsPerAccount: 100,
  shareLinksPerSite: 100,
  apiTokensPerAccount: 50,
  webhooksPerAccount: 20,
} as const;

/** The caps a server enforces: the defaults, or the operator's values. */
export interface AccountCaps {
  sitesPerAccount: number;
  customDomainsPerAccount: number;
  shareLinksPerSite: number;
  apiTokensPerAccount: number;
  webhooksPerAccount: number;
}

/** What the API answers when an add would go over a cap; it names the cap and the way out. */
export const CAP_TEXT = {
  sites: (max: number) => `You can have at most ${formatCount(max)} sites. Delete one to add another; a deleted site counts until it is purged.`,
  customDomains: (max: number) => `You can have at most ${formatCount(max)} custom domains. Remove one to add another.`,
  shareLinks: (max: number) => `A site can have at most ${formatCount(max)} share links. Delete one to add another.`,
  apiTokens: (max: number) => `You can have at most ${formatCount(max)} API tokens. Revoke one to add another.`,
  webhooks: (max: number) => `You can have at most ${formatCount(max)} webhooks. Delete one to add another.`,
} as const;
