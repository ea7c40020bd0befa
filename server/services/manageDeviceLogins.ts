// Signing the `berth` CLI in from the browser (the flow and its answers: common/deviceLogin.ts).
// The CLI's polling secret is kept only as its SHA-256, like an API token's. The token is made
// in the transaction that marks the request used, when the CLI collects it, so its secret exists
// only in that answer. Every count is one statement, so a burst cannot get past a limit.
import { createHash, randomBytes, randomInt } from "node:crypto";
import {
  DEVICE_LOGIN_INTERVAL_SECONDS,
  DEVICE_LOGIN_TEXT,
  DEVICE_LOGIN_TTL_SECONDS,
  deviceTokenName,
  formatUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
  type DeviceLoginApproved,
  type DeviceLoginStarted,
} from "../../common/deviceLogin";
import { DEVICE_CODE_GUESS_LIMIT, DEVICE_LOGIN_START_LIMIT } from "../../common/limits";
import type { AppContext } from "../context";
import { countActiveApiTokensForUser } from "../db/repositories/apiTokens";
import {
  answerDeviceLogin,
  claimApprovedDeviceLogin,
  getAnswererEmail,
  getDeviceLoginByDeviceCodeHash,
  getDeviceLoginByUserCode,
  insertDeviceLogin,
  recordDeviceLoginPoll,
  type DeviceLogin,
} from "../db/repositories/deviceLogins";
import { addressKey } from "../http/address";
import { AppError } from "../errors";
import { requireRoom } from "./accountCaps";
import { countAttempt, limitedAttempt } from "./limitedAttempt";
import { insertNewApiToken } from "./manageApiTokens";

/** A refusal that says when to come back; the route sends it as Retry-After. */
export class RetryLaterError extends AppError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, 429, message);
  }
}

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
const expired = () => new AppError("login_expired", 410, DEVICE_LOGIN_TEXT.expired);
const notFound = () => new AppError("device_login_not_found", 404, DEVICE_LOGIN_TEXT.notFound);

export function hashDeviceCode(deviceCode: string): string {
  return createHash("sha256").update(deviceCode).digest("hex");
}

export function generateUserCode(): string {
  let code = "";
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/**
 * A new sign-in request from `clientAddress` (Fastify's request.ip), counted first against the
 * address's limit. A user code already in use (one in 2.6 × 10¹⁰ per row) is drawn again.
 */
export async function startDeviceLogin(
  ctx: AppContext,
  clientName: string | null,
  clientAddress: string,
  now = new Date(),
): Promise<DeviceLoginStarted> {
  const counted = await countAttempt(ctx.db, { key: `berth:device-login:${addressKey(clientAddress)}`, rule: DEVICE_LOGIN_START_LIMIT });
  if (!counted.allowed) {
    throw new RetryLaterError("rate_limited", DEVICE_LOGIN_TEXT.tooManyStarts(minutes(counted.retryAfterSeconds)), counted.retryAfterSeconds);
  }
  const deviceCode = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + DEVICE_LOGIN_TTL_SECONDS * 1000);
  for (let draw = 0; draw < 5; draw++) {
    const row = await insertDeviceLogin(ctx.db, {
      device_code_hash: hashDeviceCode(deviceCode),
      user_code: generateUserCode(),
      client_name: clientName,
      expires_at: expiresAt,
    });
    if (!row) continue;
    const userCode = formatUserCode(row.user_code);
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_url: new URL(`/dashboard/cli?code=${userCode}`, ctx.env.appUrl).toString(),
      interval: DEVICE_LOGIN_INTERVAL_SECONDS,
      expires_in: DEVICE_LOGIN_TTL_SECONDS,
    };
  }
  throw new Error("no free user code after five draws");
}

/**
 * The CLI's poll: the token once the request is approved, else why not yet or why never. A poll
 * sooner than the interval after the last one (less a second for the network's jitter) is refused
 * with slow_down and not recorded, so a client that waits as told is never refused.
 */
export async function pollDeviceLogin(ctx: AppContext, deviceCode: string, now = new Date()): Promise<DeviceLoginApproved> {
  const hash = hashDeviceCode(deviceCode);
  const notAfter = new Date(now.getTime() - (DEVICE_LOGIN_INTERVAL_SECONDS - 1) * 1000);
  const row = await recordDeviceLoginPoll(ctx.db, hash, now, notAfter);
  if (!row) {
    if (!(await getDeviceLoginByDeviceCodeHash(ctx.db, hash))) throw expired();
    throw new RetryLaterError("slow_down", DEVICE_LOGIN_TEXT.slowDown, DEVICE_LOGIN_INTERVAL_SECONDS);
  }
  if (row.used_at !== null || row.expires_at.getTime() <= now.getTime()) throw expired();
  if (row.status === "denied") throw new AppError("login_denied", 410, DEVICE_LOGIN_TEXT.denied);
  if (row.status === "pending") throw new AppError("authorization_pending", 428, DEVICE_LOGIN_TEXT.pending);

  return ctx.db.transaction(async (tx) => {
    const claimed = await claimApprovedDeviceLogin(tx, row.id, now);
    if (!claimed?.user_id) throw expired();
    const { secret } = await insertNewApiToken(tx, ctx.env.caps, claimed.user_id, {
      name: deviceTokenName(claimed.client_name),
      permission: "full",
      siteId: null,
      expiresAt: null,
    });
    const email = await getAnswererEmail(tx, claimed.user_id);
    if (email === undefined) throw expired();
    return { token: secret, user: { email } };
  });
}

/**
 * The request with the code `rawCode` as `userId` may see it: a pending one, or one they answered.
 * Every lookup is counted against the user first and one that finds a request is given back, so
 * only wrong codes use up DEVICE_CODE_GUESS_LIMIT. A pending request that lapsed is 410.
 */
export async function getDeviceLoginForUser(ctx: AppContext, userId: string, rawCode: string, now = new Date()): Promise<DeviceLogin> {
  const code = normalizeUserCode(rawCode);
  if (code === null) throw new AppError("invalid_code", 400, DEVICE_LOGIN_TEXT.codeInvalid);
  const looked = await limitedAttempt(
    ctx.db,
    { key: `berth:device-code:${userId}`, rule: DEVICE_CODE_GUESS_LIMIT },
    async () => {
      const row = await getDeviceLoginByUserCode(ctx.db, code);
      return row && (row.status === "pending" || row.user_id === userId) ? row : undefined;
    },
    (row) => row !== undefined,
  );
  if (looked.limited) {
    throw new RetryLaterError("rate_limited", DEVICE_LOGIN_TEXT.tooManyGuesses(minutes(looked.retryAfterSeconds)), looked.retryAfterSeconds);
  }
  const row = looked.result;
  if (!row) throw notFound();
  if (row.status === "pending" && row.expires_at.getTime() <= now.getTime()) throw new AppError("login_expired", 410, DEVICE_LOGIN_TEXT.codeExpired);
  return row;
}

/**
 * Approves or denies the request for `userId`. Answering it the same way again is a no-op; the
 * other way, 409. Approving checks the account's room for one more token now, so a user at the
 * cap learns it here rather than in the terminal (the CLI's collection checks it again).
 */
export async function answerDeviceLoginForUser(
  ctx: AppContext,
  userId: string,
  rawCode: string,
  answer: "approved" | "denied",
  now = new Date(),
): Promise<DeviceLogin> {
  const row = await getDeviceLoginForUser(ctx, userId, rawCode, now);
  if (row.status === answer) return row;
  if (row.status !== "pending") throw new AppError("already_answered", 409, DEVICE_LOGIN_TEXT.alreadyAnswered);
  const answered = await ctx.db.transaction(async (tx) => {
    if (answer === "approved") await requireRoom(tx, ctx.env.caps, "apiTokensPerAccount", userId, (db) => countActiveApiTokensForUser(db, userId));
    return answerDeviceLogin(tx, row.id, userId, answer, now);
  });
  if (answered) return answered;
  // Someone answered it (or it lapsed) between the lookup and the update: read what happened.
  return getDeviceLoginForUser(ctx, userId, rawCode, now).then((latest) => {
    if (latest.status === answer) return latest;
    throw new AppError("already_answered", 409, DEVICE_LOGIN_TEXT.alreadyAnswered);
  });
}
