import { describe, expect, it } from "vitest";
import { authCookieHeader, fromHostPrefix, toHostPrefix } from "./cookies";

describe("__Host- session cookies over HTTPS", () => {
  it("renames better-auth's secure cookies on the way out", () => {
    expect(toHostPrefix("__Secure-berth.session_token=abc; Path=/; HttpOnly; Secure; SameSite=Lax")).toBe(
      "__Host-berth.session_token=abc; Path=/; HttpOnly; Secure; SameSite=Lax",
    );
    expect(toHostPrefix("other=1")).toBe("other=1");
  });

  it("renames them back on the way in and drops planted __Secure- ones", () => {
    expect(fromHostPrefix("__Secure-berth.session_token=planted; __Host-berth.session_token=real; theme=dark")).toBe(
      "__Secure-berth.session_token=real; theme=dark",
    );
  });

  it("drops every copy of a Berth cookie sent more than once, and nothing else", () => {
    expect(authCookieHeader("berth.session_token=planted; theme=dark; berth.session_token=real", false)).toBe("theme=dark");
    expect(authCookieHeader(" berth.session_token=real ;theme=dark;theme=light", false)).toBe("berth.session_token=real; theme=dark; theme=light");
    expect(authCookieHeader("__Host-berth.session_token=a; __Host-berth.session_token=b; __Host-berth.two_factor=c", true)).toBe(
      "__Secure-berth.two_factor=c",
    );
    expect(authCookieHeader("__Secure-berth.session_token=planted; __Host-berth.session_token=real", true)).toBe("__Secure-berth.session_token=real");
  });
});
