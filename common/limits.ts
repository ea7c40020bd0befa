// Limits shared by the server and the dashboard. The numbers live here and nowhere else.

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

/** Wrong share-link passwords, per link and client address. */
export const SHARE_LINK_PASSWORD_LIMIT = { window: 5 * 60, max: 10 } as const;
