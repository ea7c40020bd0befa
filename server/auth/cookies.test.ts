import { describe, expect, it } from "vitest";
import { fromHostPrefix, toHostPrefix } from "./cookies";

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
});
