// Signing the `berth` CLI in through the browser: the device flow of OAuth (RFC 8628) in Berth's
// own JSON. The terminal shows a short code and a link; the user, signed in on the dashboard,
// approves it; the CLI, which has been polling with a secret only it knows, receives an API token.
// Shared by the server, the dashboard and (types only) the CLI.
//
//   POST /api/cli/login        StartDeviceLoginRequest → 201 DeviceLoginStarted
//        Public, rate-limited per client address (DEVICE_LOGIN_START_LIMIT).
//   POST /api/cli/login/poll   PollDeviceLoginRequest → 200 DeviceLoginApproved, exactly once
//        Public; the device code is the credential. While nobody has answered: 428
//        `authorization_pending`; polled sooner than `interval` after the last poll: 429
//        `slow_down` (wait longer: the interval plus five seconds); expired, unknown or already
//        used: 410 `login_expired`; denied: 410 `login_denied`.
//   GET  /api/cli/login/:userCode           → DeviceLoginResponse   (browser session only)
//   POST /api/cli/login/:userCode/approve   → DeviceLoginResponse   (browser session only)
//   POST /api/cli/login/:userCode/deny      → DeviceLoginResponse   (browser session only)
//        A pending request is open to any signed-in user who has its code (that is the flow:
//        the code is what the terminal shows); once answered, only its answerer sees it, and
//        anyone else gets the 404 of an unknown code. Wrong codes are limited per user
//        (DEVICE_CODE_GUESS_LIMIT).
//   GET  /api/whoami → WhoAmIResponse: who a token (any permission, any scope) or a session acts for.
//
// The token is made when the CLI collects it, not when the user approves: its secret is never
// stored, not even for the seconds between the two, and a CLI that was stopped leaves no token.
// It has full permission on all the user's sites and no expiry, like the browser session it
// stands in for; it is listed on the Integrations page, where it is revoked.
import { z } from "zod";
import { API_TOKEN_NAME_MAX, type ApiTokenPermission } from "./apiTokens";
import { isOneLine } from "./names";

/** How long a sign-in request waits for an answer. */
export const DEVICE_LOGIN_TTL_SECONDS = 10 * 60;
/** How often the CLI may poll. */
export const DEVICE_LOGIN_INTERVAL_SECONDS = 5;
/** RFC 8628's answer to slow_down: add this much to the interval. */
export const DEVICE_LOGIN_SLOW_DOWN_SECONDS = 5;

/**
 * The letters of a user code: consonants only, without vowels (so no code spells a word) and
 * without digits (so 0/O and 1/I cannot be mixed up). 20⁸ ≈ 2.6 × 10¹⁰ codes; with guesses
 * limited per user and a code living ten minutes, a guess is hopeless.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

/** "BCDFGHJK" → "BCDF-GHJK", as the terminal and the dashboard show it. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What a person typed or pasted ("bcdf-ghjk", "BCDF GHJK") as the stored code, or null when it
 * cannot be one. Only the separators a person would type are dropped.
 */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const letter of code) if (!USER_CODE_ALPHABET.includes(letter)) return null;
  return code;
}

/** The token a sign-in makes is named this, followed by the client's name. */
export const DEVICE_TOKEN_NAME_PREFIX = "berth CLI on ";
/** The longest client name: with the prefix it must fit a token name. */
export const CLIENT_NAME_MAX = API_TOKEN_NAME_MAX - DEVICE_TOKEN_NAME_PREFIX.length;

/** The API token's name for a sign-in from `clientName` (or from an unnamed client). */
export function deviceTokenName(clientName: string | null): string {
  return clientName ? DEVICE_TOKEN_NAME_PREFIX + clientName : "berth CLI";
}

export const DEVICE_LOGIN_TEXT = {
  clientNameTooLong: `The client name must be at most ${CLIENT_NAME_MAX} characters`,
  clientNameOneLine: "The client name must be a single line, without control characters",
  deviceCodeRequired: "device_code is required",
  pending: "Waiting for the sign-in to be approved in the browser",
  slowDown: `Polling too fast: wait at least ${DEVICE_LOGIN_INTERVAL_SECONDS} seconds between requests`,
  expired: "This sign-in request has expired or was already used. Run berth login again.",
  denied: "This sign-in request was denied in the browser.",
  codeInvalid: `Enter the ${USER_CODE_LENGTH}-letter code your terminal shows`,
  notFound: "No sign-in request has this code. Check the code your terminal shows.",
  codeExpired: "This code has expired. Run berth login again for a new one.",
  alreadyAnswered: "This sign-in request was already answered",
  tooManyStarts: (minutes: number) => `Too many sign-in requests. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
  tooManyGuesses: (minutes: number) => `Too many wrong codes. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
} as const;

export const StartDeviceLoginRequest = z.object({
  /** Which computer asks, shown on the approval page and in the token's name ("my-laptop"). */
  client_name: z
    .string()
    .trim()
    .max(CLIENT_NAME_MAX, DEVICE_LOGIN_TEXT.clientNameTooLong)
    .refine(isOneLine, DEVICE_LOGIN_TEXT.clientNameOneLine)
    .transform((name) => name || null)
    .nullable()
    .default(null),
});
export type StartDeviceLoginRequest = z.input<typeof StartDeviceLoginRequest>;

export const PollDeviceLoginRequest = z.object({
  device_code: z.string({ error: DEVICE_LOGIN_TEXT.deviceCodeRequired }).min(1, DEVICE_LOGIN_TEXT.deviceCodeRequired).max(200),
});
export type PollDeviceLoginRequest = z.input<typeof PollDeviceLoginRequest>;

export interface DeviceLoginStarted {
  /** The CLI's secret for polling (32 random bytes, base64url). The server keeps only its hash. */
  device_code: string;
  /** What the user checks in the browser, "XXXX-XXXX". */
  user_code: string;
  /** The dashboard page that approves this request, the code filled in. */
  verification_url: string;
  /** Seconds to wait between polls. */
  interval: number;
  /** Seconds until the request lapses. */
  expires_in: number;
}

export interface DeviceLoginApproved {
  /** The API token's secret, handed out once. */
  token: string;
  user: { email: string };
}

/** The error codes of POST /api/cli/login/poll while it has no token to give. */
export type DeviceLoginPollError = "authorization_pending" | "slow_down" | "login_expired" | "login_denied";

export const DEVICE_LOGIN_STATUSES = ["pending", "approved", "denied"] as const;
export type DeviceLoginStatus = (typeof DEVICE_LOGIN_STATUSES)[number];

export interface DeviceLoginResponse {
  /** "XXXX-XXXX". */
  user_code: string;
  client_name: string | null;
  /** The name the API token gets. */
  token_name: string;
  status: DeviceLoginStatus;
  created_at: string;
  expires_at: string;
}

export interface WhoAmIResponse {
  user: { email: string; name: string };
  /** The API token the request came with, or null for a browser session. */
  token: {
    name: string;
    permission: ApiTokenPermission;
    /** The one site the token covers, or null for all the owner's sites. */
    site: { id: string; subdomain: string | null } | null;
    expires_at: string | null;
  } | null;
}
