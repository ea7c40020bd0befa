import { describe, expect, it } from "vitest";
import { shareKeys, shareToken } from "../sites/shareTokens";
import { checkShareCookie, issueShareCookie, SHARE_MAX_AGE_SECONDS, shareCookieHeader, shareCookiesOf } from "./shareCookies";

const keys = shareKeys("test-secret", "http://localhost:8080");
const LINK = "0f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b";
const SITE = "11111111-2222-4333-8444-555555555555";

describe("share cookies", () => {
  const now = 1_700_000_000_000;

  it("lasts 7 days, or until the link expires when that is sooner", () => {
    const long = issueShareCookie(keys, SITE, LINK, Infinity, now);
    expect(long.maxAgeSeconds).toBe(SHARE_MAX_AGE_SECONDS);
    expect(checkShareCookie(keys, long.value, SITE, now)).toEqual({ linkId: LINK, expires: (Math.floor(now / 1000) + SHARE_MAX_AGE_SECONDS) * 1000 });
    const short = issueShareCookie(keys, SITE, LINK, now + 90_000, now);
    expect(short.maxAgeSeconds).toBe(90);
    expect(checkShareCookie(keys, short.value, SITE, now + 89_000)?.linkId).toBe(LINK);
    expect(checkShareCookie(keys, short.value, SITE, now + 90_000)).toBeUndefined();
    expect(shareCookieHeader(keys, short)).toBe(`berth_share=${short.value}; Max-Age=90; Path=/; HttpOnly; SameSite=Lax`);
    expect(shareCookieHeader({ ...keys, secure: true }, short)).toMatch(/; Secure$/);
  });

  it("is refused for another site, with a changed field or signature, or signed by another key", () => {
    const { value } = issueShareCookie(keys, SITE, LINK, Infinity, now);
    const [site, link, expires, signature] = value.split(".");
    expect(checkShareCookie(keys, value, "99999999-2222-4333-8444-555555555555", now)).toBeUndefined();
    expect(checkShareCookie(keys, [site, "00000000-1b3d-4e5f-8a9b-0c1d2e3f4a5b", expires, signature].join("."), SITE, now)).toBeUndefined();
    expect(checkShareCookie(keys, [site, link, String(Number(expires) + 1000), signature].join("."), SITE, now)).toBeUndefined();
    expect(
      checkShareCookie(keys, [site, link, expires, signature!.replace(/^./, (c) => (c === "A" ? "B" : "A"))].join("."), SITE, now),
    ).toBeUndefined();
    expect(checkShareCookie(keys, `${value}.x`, SITE, now)).toBeUndefined();
    expect(checkShareCookie(shareKeys("another secret", "http://x"), value, SITE, now)).toBeUndefined();
    // A URL token is not a cookie, whatever is put around it.
    expect(checkShareCookie(keys, `${SITE}.${LINK}.${expires}.${shareToken(keys, LINK)}`, SITE, now)).toBeUndefined();
  });

  it("finds every share cookie among others", () => {
    expect(shareCookiesOf(undefined)).toEqual([]);
    expect(shareCookiesOf("a=1; berth_share=x.y; berth_site_pass=p;berth_share=z ; berth_shares=no")).toEqual(["x.y", "z"]);
  });
});
