import { describe, expect, it } from "vitest";
import { freshSubdomains, isIssuableSubdomain, randomSubdomain } from "./subdomainNames";

describe("subdomain names", () => {
  it("are 5 lowercase letters", () => {
    for (let i = 0; i < 500; i++) expect(randomSubdomain()).toMatch(/^[a-z]{5}$/);
  });

  it.each(["admin", "email", "berth", "sites", "xfuck", "assbo", "nazis", "ab1de", "ABCDE", "abcd", "abcdef"])("never issue %s", (name) => {
    expect(isIssuableSubdomain(name)).toBe(false);
  });

  it("skips a reserved name the random source produces", () => {
    // "admin" first (a=0, d=3, m=12, i=8, n=13), then "qwert".
    const sequence = [0, 3, 12, 8, 13, 16, 22, 4, 17, 19];
    let i = 0;
    expect(randomSubdomain(() => sequence[i++]!)).toBe("qwert");
  });

  it("avoids names already taken and repeats none", () => {
    const taken = new Set(["qwert"]);
    const names = freshSubdomains(100, taken);
    expect(new Set(names).size).toBe(100);
    expect(names).not.toContain("qwert");
  });
});
