import { describe, expect, it } from "vitest";
import type { ApiTokenResponse } from "../../../common/apiTokens";
import { ALL_SITES, EXPIRY_OPTIONS, expiryLabel, lastUsedLabel, NewTokenForm, prefixLabel, scopeLabel } from "./apiTokens";

const NOW = new Date("2026-11-27T12:00:00Z");

function token(overrides: Partial<ApiTokenResponse> = {}): ApiTokenResponse {
  return {
    id: "t1",
    name: "CI",
    permission: "deploy",
    site: null,
    prefix: "berth_a1b2",
    created_at: "2026-11-20T12:00:00Z",
    expires_at: null,
    last_used_at: null,
    last_used_ip: null,
    ...overrides,
  };
}

describe("how a token reads", () => {
  it("names its scope: all sites, or the one site", () => {
    expect(scopeLabel(token())).toBe("All sites");
    expect(scopeLabel(token({ site: { id: "s1", name: "Portfolio", subdomain: "abcde" } }))).toBe("Portfolio");
  });

  it("shows the prefix as the start of something longer", () => {
    expect(prefixLabel(token())).toBe("berth_a1b2…");
  });

  it("says whether and when it expires", () => {
    expect(expiryLabel(token(), NOW)).toEqual({ label: "Never expires", expired: false });
    expect(expiryLabel(token({ expires_at: "2026-12-27T12:00:00Z" }), NOW)).toMatchObject({
      label: expect.stringMatching(/^Expires /),
      expired: false,
    });
    expect(expiryLabel(token({ expires_at: "2026-11-27T12:00:00Z" }), NOW)).toMatchObject({
      label: expect.stringMatching(/^Expired /),
      expired: true,
    });
  });

  it("says when and from where it was last used, or that it never was", () => {
    expect(lastUsedLabel(token(), NOW)).toEqual({ label: "Never used" });
    expect(lastUsedLabel(token({ last_used_at: "2026-11-27T11:55:00Z", last_used_ip: "203.0.113.7" }), NOW).label).toBe(
      "Last used 5 minutes ago from 203.0.113.7",
    );
    expect(lastUsedLabel(token({ last_used_at: "2026-11-27T11:55:00Z", last_used_ip: "0000:0000:0000:0000:0000:0000:0000:0001" }), NOW).label).toBe(
      "Last used 5 minutes ago from ::1",
    );
    expect(lastUsedLabel(token({ last_used_at: "2026-11-27T11:55:00Z", last_used_ip: null }), NOW).label).toBe("Last used 5 minutes ago");
  });
});

describe("the new-token form", () => {
  const fields = { name: "  GitHub Actions ", scope: ALL_SITES, permission: "deploy" as const, expiry: "30" };

  it("offers the server's expiries and never", () => {
    expect(EXPIRY_OPTIONS.map((option) => option.value)).toEqual(["7", "30", "90", "365", "never"]);
  });

  it("turns the fields into the server's request", () => {
    expect(NewTokenForm.parse(fields)).toEqual({ name: "GitHub Actions", siteId: null, permission: "deploy", expiresInDays: 30 });
    expect(NewTokenForm.parse({ ...fields, scope: "site-1", expiry: "never" })).toEqual({
      name: "GitHub Actions",
      siteId: "site-1",
      permission: "deploy",
      expiresInDays: null,
    });
  });

  it("puts the server's messages under the form's fields", () => {
    const result = NewTokenForm.safeParse({ ...fields, name: " ", expiry: "0" });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toContainEqual(["name", "Token name is required"]);
    expect(issues.map(([path]) => path)).toContain("expiry");
  });
});
