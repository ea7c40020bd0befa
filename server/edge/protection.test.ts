// safeNext over many random strings (random UTF-16 code units, lone surrogates included): its
// answer is always "/" or a path of this host in RFC 3986's characters, it changes nothing a URL
// may already hold, and decoding it gives back exactly what was asked for.
import { describe, expect, it } from "vitest";
import { NEXT_MAX_LENGTH, safeNext } from "./protection";

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const SAFE_PATH = /^\/(?![/\\])(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;

function generator(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, int: (max: number) => Math.floor(next() * max) };
}

describe("safeNext", () => {
  it("answers a safe path for 100,000 random values, and encodes without losing anything", () => {
    const { next, int } = generator(31337);
    const alphabet = ["/", "\\", "%", "?", "#", "a", ".", ":", " ", "\r", "\n", "\x00", "\x7f", "é", "€"];
    const failures: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      let value = next() < 0.8 ? "/" : "";
      for (let n = int(12); n > 0; n--) {
        const roll = next();
        if (roll < 0.5) value += alphabet[int(alphabet.length)];
        else if (roll < 0.8) value += String.fromCharCode(int(0x80));
        else if (roll < 0.95) value += String.fromCharCode(int(0x10000));
        else value += String.fromCodePoint(0x10000 + int(0x100000));
      }
      const answer = safeNext(value);
      const kept = value[0] === "/" && value[1] !== "/" && value[1] !== "\\";
      const problems = [
        !SAFE_PATH.test(answer) && "not a safe path",
        safeNext(answer) !== answer && "changed a second time",
        !kept && answer !== "/" && "kept a value that is not a path of this host",
        kept && !value.includes("%") && !LONE_SURROGATE.test(value) && decodeURIComponent(answer) !== value && "lost something",
      ].filter(Boolean);
      if (problems.length > 0) failures.push(`${JSON.stringify(value)} → ${JSON.stringify(answer)}: ${problems.join(", ")}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it("sends an absurdly long next home", () => {
    expect(safeNext("/" + "a".repeat(NEXT_MAX_LENGTH - 1))).toHaveLength(NEXT_MAX_LENGTH);
    expect(safeNext("/" + "a".repeat(NEXT_MAX_LENGTH))).toBe("/");
    expect(safeNext("/" + "é".repeat(400))).toBe("/");
  });

  it.each([
    [undefined, "/"],
    [null, "/"],
    ["", "/"],
    ["docs", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["/docs/?q=a+b&page=2", "/docs/?q=a+b&page=2"],
    ["/a%2Fb%zz%", "/a%2Fb%25zz%25"],
    ["/\t/evil.example", "/%09/evil.example"],
    ["/<script>#x", "/%3Cscript%3E%23x"],
  ])("%j → %j", (value, answer) => {
    expect(safeNext(value)).toBe(answer);
  });
});
