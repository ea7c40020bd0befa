import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature } from "./signature";
import { nextAttemptAt, retryDelayMs } from "./schedule";
import { openSecret, sealSecret, webhookSecretKey } from "./secretBox";

const SECRET = "whsec_test";
const BODY = '{"id":"1","type":"ping"}';
const T = 1_800_000_000;

describe("the Berth-Signature header", () => {
  it("is t and the hex HMAC-SHA256 of '<t>.<body>' under the secret", () => {
    const expected = createHmac("sha256", SECRET).update(`${T}.${BODY}`).digest("hex");
    expect(signWebhook(SECRET, BODY, T)).toBe(`t=${T},v1=${expected}`);
  });

  it("verifies with the same secret, body and a recent time only", () => {
    const header = signWebhook(SECRET, BODY, T);
    expect(verifyWebhookSignature(SECRET, BODY, header, T * 1000)).toBe(true);
    expect(verifyWebhookSignature(SECRET, BODY, header, (T + 299) * 1000)).toBe(true);
    expect(verifyWebhookSignature("whsec_other", BODY, header, T * 1000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY.replace("ping", "pong"), header, T * 1000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY, header, (T + 301) * 1000)).toBe(false);
    // The timestamp is signed too: moving it forward breaks the signature.
    expect(verifyWebhookSignature(SECRET, BODY, header.replace(`t=${T}`, `t=${T + 60}`), (T + 60) * 1000)).toBe(false);
    for (const broken of ["", "t=", `t=${T}`, `v1=${"0".repeat(64)}`, `t=${T},t=${T},v1=x`, `t=abc,v1=${"0".repeat(64)}`])
      expect(verifyWebhookSignature(SECRET, BODY, broken, T * 1000)).toBe(false);
  });
});

describe("the retry schedule", () => {
  it("waits 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then 4 h each time", () => {
    const minutes = [1, 2, 3, 4, 5, 6, 7, 8, 12].map((n) => retryDelayMs(n) / 60_000);
    expect(minutes).toEqual([0.5, 2, 10, 30, 60, 120, 240, 240, 240]);
  });

  it("gives up once the next try would fall after the retry window", () => {
    const created = new Date("2030-01-01T00:00:00Z");
    const until = new Date(created.getTime() + 24 * 3_600_000);
    let now = created;
    const tries = [now];
    for (let attempts = 1; ; attempts++) {
      const next = nextAttemptAt(attempts, now, until);
      if (!next) break;
      tries.push((now = next));
    }
    // 30 s + 2 + 10 + 30 min + 1 + 2 h = 3 h 42.5 min, then every 4 h: 7:42, 11:42, 15:42, 19:42, 23:42.
    expect(tries).toHaveLength(12);
    expect(tries.at(-1)!.toISOString()).toBe("2030-01-01T23:42:30.000Z");
    expect(nextAttemptAt(1, new Date(until.getTime() - 10_000), until)).toBeNull();
  });
});

describe("endpoint secrets at rest", () => {
  const key = webhookSecretKey("server-secret-server-secret-server-secret");

  it("opens what it sealed, and the sealed form does not contain the secret", () => {
    const sealed = sealSecret(key, "whsec_abc123");
    expect(sealed).not.toContain("abc123");
    expect(openSecret(key, sealed)).toBe("whsec_abc123");
    expect(sealSecret(key, "whsec_abc123")).not.toBe(sealed);
  });

  it("refuses another server secret's key and an altered box", () => {
    const sealed = sealSecret(key, "whsec_abc123");
    expect(() => openSecret(webhookSecretKey("another-secret-another-secret-another"), sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("whsec_abc124").toString("base64url");
    expect(() => openSecret(key, parts.join("."))).toThrow();
    expect(() => openSecret(key, "plain")).toThrow();
  });
});
