// Rate limits hold against guesses sent all at once: every limiter counts an attempt in one
// statement before the expensive check (scrypt, a code, a token, a send, an API token's lookup), so of 100 parallel
// requests at most the limit are checked; the rest are answered 429 without a check. A check is
// counted by its answer: anything but 429 means the server looked at the guess. On PostgreSQL the
// requests really run side by side; PGlite runs one statement at a time, but the edge's forms and
// better-auth's endpoints still interleave through their awaits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { DRIVERS, getTestServer, TEST_APP_URL, type TestClient, type TestServer } from "../test/support";
import { buildUser, ownerWithSite, type BuiltUser } from "../test/factories";
import { hostOf } from "../test/sites";
import { totpFromUri } from "../test/totp";
import { randomBytes, randomUUID } from "node:crypto";
import { contactMessages, rateLimits, users } from "../db/schema";
import { apiTokenLimitKey } from "../services/authenticateApiToken";
import { hashApiTokenSecret } from "../services/manageApiTokens";
import { bearer, createToken } from "../test/apiTokens";
import {
  API_TOKEN_LIMIT,
  API_TOKEN_MISS_LIMIT,
  AUTH_LIMITS,
  CONTACT_LIMIT,
  SHARE_LINK_PASSWORD_LIMIT,
  SITE_PASSWORD_LIMIT,
  TWO_FACTOR_ACCOUNT_LIMIT,
  TWO_FACTOR_VERIFY_LIMIT,
} from "../../common/limits";

const BURST = 100;
const SITE_PASSWORD = "a long site password";

/** How many answers had each status, e.g. { 401: 10, 429: 90 }. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const checked = (statuses: number[]) => statuses.filter((status) => status !== 429).length;

/** `count` six-digit codes, none of them valid around now (the server accepts a step either side). */
function wrongCodes(uri: string, count: number): string[] {
  const near = new Set([-30_000, 0, 30_000].map((offset) => totpFromUri(uri, Date.now() + offset)));
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n++) {
    const code = String(n).padStart(6, "0");
    if (!near.has(code)) codes.push(code);
  }
  return codes;
}

let addresses = 0;
/** A fresh client address per test, so each limiter starts from zero. */
const nextAddress = () => `198.51.100.${++addresses}`;

describe.each(DRIVERS)(`rate limits against ${BURST} guesses at once (%s)`, (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const post = (url: string, body: unknown, address: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: "POST",
      url,
      remoteAddress: address,
      headers: { origin: TEST_APP_URL, "content-type": "application/json", ...headers },
      payload: JSON.stringify(body),
    });

  /** Sends every request at once and returns the statuses in the order the requests were made. */
  const burst = async (requests: (() => Promise<{ statusCode: number }>)[]) =>
    (await Promise.all(requests.map((send) => send()))).map((r) => r.statusCode);

  describe("better-auth's endpoints", () => {
    it(`sign-in: at most ${AUTH_LIMITS.signIn.max} passwords checked, the right one last refused`, async () => {
      const user = await buildUser(server);
      const address = nextAddress();
      // Spellings that reach the same endpoint must share its counter.
      const paths = ["/api/auth/sign-in/email", "/api/auth/./sign-in/email", "/api/auth/x/../sign-in/email"];
      const statuses = await burst([
        ...Array.from(
          { length: BURST - 1 },
          (_, i) => () => post(`${paths[i % paths.length]}?i=${i}`, { email: user.email, password: `wrong guess ${i}` }, address),
        ),
        () => post("/api/auth/sign-in/email", { email: user.email, password: user.password }, address),
      ]);
      expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(AUTH_LIMITS.signIn.max);
      expect(statuses.at(-1)).toBe(429);
    });

    it(`sign-up: at most ${AUTH_LIMITS.signUp.max} accounts made`, async () => {
      const address = nextAddress();
      const emails = Array.from({ length: BURST }, (_, i) => `burst${i}.${driver}.${Date.now()}@example.com`);
      const statuses = await burst(
        emails.map((email) => () => post("/api/auth/sign-up/email", { email, password: "a long password", name: "Burst" }, address)),
      );
      expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(AUTH_LIMITS.signUp.max);
      const made = await server.ctx.db.select({ id: users.id }).from(users).where(inArray(users.email, emails));
      expect(made.length).toBeLessThanOrEqual(AUTH_LIMITS.signUp.max);
    });

    it(`password reset requests: at most ${AUTH_LIMITS.reset.max}, and no more e-mails`, async () => {
      const user = await buildUser(server);
      const address = nextAddress();
      const statuses = await burst(
        Array.from(
          { length: BURST },
          () => () => post("/api/auth/request-password-reset", { email: user.email, redirectTo: "/auth/reset-password" }, address),
        ),
      );
      expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(AUTH_LIMITS.reset.max);
      expect(server.outbox.messagesTo(user.email).filter((m) => /reset/i.test(m.subject)).length).toBeLessThanOrEqual(AUTH_LIMITS.reset.max);
    });

    it(`password reset: at most ${AUTH_LIMITS.reset.max} tokens checked`, async () => {
      const address = nextAddress();
      const statuses = await burst(
        Array.from(
          { length: BURST },
          (_, i) => () => post("/api/auth/reset-password", { token: `guessed-token-${i}`, newPassword: "a brand new password" }, address),
        ),
      );
      expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(AUTH_LIMITS.reset.max);
    });

    it(`confirmation e-mails sent again: at most ${AUTH_LIMITS.reset.max}`, async () => {
      const user = await buildUser(server, { verified: false });
      const address = nextAddress();
      const statuses = await burst(
        Array.from({ length: BURST }, () => () => post("/api/auth/send-verification-email", { email: user.email }, address)),
      );
      expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(AUTH_LIMITS.reset.max);
    });
  });

  describe("two-factor sign-in", () => {
    // Each pending sign-in costs a password hash check: 25 of them take a while on a busy machine.
    const SETUP_TIMEOUT = 120_000;

    interface Challenge {
      /** Holds the pending sign-in's cookie. */
      client: TestClient;
      totpURI: string;
      user: BuiltUser;
    }

    /** `accounts` users with two-factor on, and `each` pending sign-ins for each, every one from its own address. */
    const challenged = async (accounts: number, each: number): Promise<Challenge[]> => {
      const perAccount = await Promise.all(
        Array.from({ length: accounts }, async () => {
          const user = await buildUser(server);
          const owner = server.client();
          expect((await owner.post("/api/auth/sign-in/email", { email: user.email, password: user.password })).statusCode).toBe(200);
          const { totpURI } = (await owner.post("/api/auth/two-factor/enable", { password: user.password })).json<{ totpURI: string }>();
          expect((await owner.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) })).statusCode).toBe(200);
          return Promise.all(
            Array.from({ length: each }, async () => {
              const client = server.client();
              const started = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
              expect(started.json()).toMatchObject({ twoFactorRedirect: true });
              return { client, totpURI, user };
            }),
          );
        }),
      );
      // Interleaved, so a burst spread over them takes turns between accounts.
      return Array.from({ length: accounts * each }, (_, i) => perAccount[i % accounts]![Math.floor(i / accounts)]!);
    };

    /** The challenge's cookie, to send from another address. */
    const cookieOf = (client: TestClient) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");

    /** 100 wrong codes, authenticator and backup codes in turn, spread over the challenges; `from` picks the address. */
    const guesses = (challenges: Challenge[], from: (i: number) => string) =>
      Array.from({ length: BURST }, (_, i) => () => {
        const challenge = challenges[i % challenges.length]!;
        const code = wrongCodes(challenge.totpURI, BURST)[i]!;
        const backup = i % 2 === 1;
        const path = backup ? "/api/auth/two-factor/verify-backup-code" : "/api/auth/two-factor/verify-totp";
        return post(path, { code: backup ? `${code.slice(0, 5)}-${code}` : code }, from(i), { cookie: cookieOf(challenge.client) });
      });

    it(
      `from one address: at most ${TWO_FACTOR_VERIFY_LIMIT.max} codes checked, both kinds together, over several accounts`,
      async () => {
        const challenges = await challenged(5, 5);
        const address = nextAddress();
        const statuses = await burst(guesses(challenges, () => address));
        expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(TWO_FACTOR_VERIFY_LIMIT.max);
      },
      SETUP_TIMEOUT,
    );

    it(
      `from many addresses: at most ${TWO_FACTOR_ACCOUNT_LIMIT.max} codes checked for one account`,
      async () => {
        const challenges = await challenged(1, 25);
        const { user, totpURI } = challenges[0]!;
        const addresses = challenges.map(() => nextAddress());
        const responses = await Promise.all(guesses(challenges, (i) => addresses[i % challenges.length]!).map((send) => send()));
        // A code was checked when the answer says it was wrong (or right); the rest were refused
        // before any check (429), or lost the race for their challenge's attempt (401, cookie).
        const codes = responses.map((r) => `${r.statusCode} ${r.json<{ code?: string }>().code ?? ""}`);
        const verified = codes.filter((c) => /^200 |INVALID_CODE|INVALID_BACKUP_CODE/.test(c));
        expect(
          verified.length,
          JSON.stringify(codes.reduce<Record<string, number>>((t, c) => ({ ...t, [c]: (t[c] ?? 0) + 1 }), {})),
        ).toBeLessThanOrEqual(TWO_FACTOR_ACCOUNT_LIMIT.max);
        // Refused with the answer the dashboard shows as "too many attempts".
        expect(codes).toContain("429 ACCOUNT_TEMPORARILY_LOCKED");
        // The account now waits, whatever the code: even the right one from a new challenge.
        const late = server.client();
        await late.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
        expect((await late.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) })).statusCode).toBe(429);
      },
      SETUP_TIMEOUT,
    );
  });

  it(`contact form: at most ${CONTACT_LIMIT.max} messages stored`, async () => {
    const address = nextAddress();
    const subject = `Burst ${driver} ${Date.now()}`;
    const statuses = await burst(
      Array.from(
        { length: BURST },
        (_, i) => () => post("/api/contact", { name: "Ann", email: "ann@example.com", subject, message: `Hi ${i}.` }, address),
      ),
    );
    expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(CONTACT_LIMIT.max);
    const stored = await server.ctx.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.subject, subject));
    expect(stored.length).toBeLessThanOrEqual(CONTACT_LIMIT.max);
  });

  describe("API tokens: per token from any address, unknown ones per address", () => {
    /** The token's counter, as if `API_TOKEN_LIMIT.max - room` requests had already been made this minute. */
    const leaveRoom = async (secret: string, room: number) =>
      server.ctx.db.insert(rateLimits).values({
        id: randomUUID(),
        key: apiTokenLimitKey(hashApiTokenSecret(secret)),
        count: API_TOKEN_LIMIT.max - room,
        lastRequest: Date.now(),
      });

    it(`a valid token: at most the room left reaches the route, the rest 429 with Retry-After`, async () => {
      const owner = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Token</h1>" }]);
      const { secret } = await createToken(owner.client, "read");
      await leaveRoom(secret, 10);
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          server.app.inject({
            method: "GET",
            url: `/api/sites/${owner.site.id}`,
            remoteAddress: nextAddress(),
            headers: bearer(secret),
            query: { i: String(i) },
          }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(tally(statuses)).toEqual({ 200: 10, 429: BURST - 10 });
      for (const answer of answers.filter((a) => a.statusCode === 429)) expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    });

    it(`made-up tokens from one address: at most ${API_TOKEN_MISS_LIMIT.max} answered 401, the rest 429, and no counter per token`, async () => {
      const address = nextAddress();
      const perToken = async () =>
        (await server.ctx.db.select({ key: rateLimits.key }).from(rateLimits)).filter(({ key }) => key.startsWith("berth:api-token:")).length;
      const before = await perToken();
      const statuses = await burst(
        Array.from(
          { length: BURST },
          () => () =>
            server.app.inject({
              method: "GET",
              url: "/api/sites",
              remoteAddress: address,
              headers: bearer(`berth_${randomBytes(32).toString("base64url")}`),
            }),
        ),
      );
      expect(tally(statuses)).toEqual({ 401: API_TOKEN_MISS_LIMIT.max, 429: BURST - API_TOKEN_MISS_LIMIT.max });
      expect(await perToken()).toBe(before);
    });
  });

  describe("on the edge, over a socket", () => {
    let host: string;
    let sharePath: string;

    beforeAll(async () => {
      const owner = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Protected</h1>" }]);
      host = hostOf(owner.site.url);
      expect((await owner.client.request("PUT", `/api/sites/${owner.site.id}/password`, { json: { password: SITE_PASSWORD } })).statusCode).toBe(200);
      const link = await owner.client.post(`/api/sites/${owner.site.id}/share-links`, { name: "Friend", password: SITE_PASSWORD });
      sharePath = new URL(link.json<{ url: string }>().url).pathname;
    });

    const form = (path: string, password: string) =>
      server.edge.get(host, path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password, next: "/" }).toString(),
      });

    it.each([
      ["the site password", () => "/.berth/password", SITE_PASSWORD_LIMIT.max],
      ["a share link's password", () => sharePath, SHARE_LINK_PASSWORD_LIMIT.max],
    ])(`%s: at most the limit checked of ${BURST}, the right one last does not get in`, async (_name, path, max) => {
      const answers = await Promise.all([...Array.from({ length: BURST - 1 }, (_, i) => form(path(), `wrong ${i}`)), form(path(), SITE_PASSWORD)]);
      const statuses = answers.map((a) => a.status);
      expect(checked(statuses), JSON.stringify(tally(statuses))).toBeLessThanOrEqual(max);
      expect(statuses.at(-1)).toBe(429);
      for (const answer of answers) expect(answer.headers["set-cookie"]).toBeUndefined();
    });
  });
});
