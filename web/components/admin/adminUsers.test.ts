import { describe, expect, it } from "vitest";
import { blockedReason, confirmsEmail, typedEmailConfirmation, pageCount, pageRange, parsePageParam } from "./adminUsers";

describe("parsePageParam", () => {
  it("reads a positive whole number", () => {
    expect(parsePageParam("3")).toBe(3);
  });
  it.each([null, "", "0", "-2", "1.5", "abc", "2e3", "99999999999999999999"])("falls back to page 1 for %j", (value) =>
    expect(parsePageParam(value)).toBe(1),
  );
});

describe("pageRange", () => {
  it("numbers the first page from 1", () => {
    expect(pageRange(1, 50, 50, 123)).toEqual({ from: 1, to: 50 });
  });
  it("ends the last page at the total", () => {
    expect(pageRange(3, 50, 23, 123)).toEqual({ from: 101, to: 123 });
  });
  it("is empty when the page has no rows", () => {
    expect(pageRange(4, 50, 0, 123)).toEqual({ from: 0, to: 0 });
  });
  it("counts pages, at least one", () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
});

describe("blockedReason", () => {
  const user = { id: "u1", adminByConfig: false };
  it("blocks every action on oneself", () => {
    for (const action of ["plan", "ban", "admin", "passwordReset", "delete"] as const) expect(blockedReason(user, "u1", action)).toBe("self");
  });
  it("allows everything on another user", () => {
    expect(blockedReason(user, "me", "ban")).toBeNull();
    expect(blockedReason(user, "me", "delete")).toBeNull();
  });
  it("leaves a config admin's ban, admin flag and deletion to the config", () => {
    const config = { id: "u2", adminByConfig: true };
    expect(blockedReason(config, "me", "admin")).toBe("config");
    expect(blockedReason(config, "me", "ban")).toBe("config");
    expect(blockedReason(config, "me", "delete")).toBe("config");
    expect(blockedReason(config, "me", "plan")).toBeNull();
    expect(blockedReason(config, "me", "passwordReset")).toBeNull();
  });
});

describe("confirmsEmail", () => {
  it("accepts the address in any case, with spaces around it", () => {
    expect(confirmsEmail("  Ada@Example.com ", "ada@example.com")).toBe(true);
  });
  it("refuses anything else", () => {
    expect(confirmsEmail("ada@example", "ada@example.com")).toBe(false);
    expect(confirmsEmail("", "ada@example.com")).toBe(false);
  });
});

describe("typedEmailConfirmation", () => {
  it("is the delete form's rule: the address typed, and never for no user", () => {
    const form = typedEmailConfirmation("ada@example.com");
    expect(form.safeParse({ typed: " ADA@example.com" }).success).toBe(true);
    expect(form.safeParse({ typed: "ada@example.co" }).success).toBe(false);
    expect(typedEmailConfirmation("").safeParse({ typed: "" }).success).toBe(false);
  });
});
