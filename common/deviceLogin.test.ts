import { describe, expect, it } from "vitest";
import { API_TOKEN_NAME_MAX } from "./apiTokens";
import { CLIENT_NAME_MAX, deviceTokenName, formatUserCode, normalizeUserCode, StartDeviceLoginRequest, USER_CODE_ALPHABET } from "./deviceLogin";

describe("user codes", () => {
  it("accept what a person types or pastes, in any case, with a hyphen or a space", () => {
    for (const typed of ["BCDF-GHJK", "bcdf-ghjk", "bcdfghjk", " BCDF GHJK ", "bcdf--ghjk"]) expect(normalizeUserCode(typed)).toBe("BCDFGHJK");
    expect(formatUserCode("BCDFGHJK")).toBe("BCDF-GHJK");
  });

  it("refuse anything else: vowels and digits (which look alike), other lengths, other separators", () => {
    for (const typed of ["ABCD-EFGH", "BCDF-GHJ0", "BCDF-GHJ", "BCDF-GHJKL", "BCDF_GHJK", "", "BCDF‐GHJK"])
      expect(normalizeUserCode(typed)).toBeNull();
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOU0-9]/);
    expect(new Set(USER_CODE_ALPHABET).size).toBe(USER_CODE_ALPHABET.length);
  });
});

describe("the sign-in's token name", () => {
  it("fits an API token's name for the longest client name allowed", () => {
    expect(deviceTokenName("x".repeat(CLIENT_NAME_MAX))).toHaveLength(API_TOKEN_NAME_MAX);
    expect(deviceTokenName("my-laptop")).toBe("berth CLI on my-laptop");
    expect(deviceTokenName(null)).toBe("berth CLI");
  });

  it("takes a blank client name as none", () => {
    expect(StartDeviceLoginRequest.parse({ client_name: "   " })).toEqual({ client_name: null });
    expect(StartDeviceLoginRequest.parse({})).toEqual({ client_name: null });
    expect(StartDeviceLoginRequest.parse({ client_name: " box " })).toEqual({ client_name: "box" });
  });
});
