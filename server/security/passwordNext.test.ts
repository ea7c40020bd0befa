// The site password form's `next` (where the visitor goes after the password) over real requests:
// thousands of random and hostile values posted with the right password, and raw request targets
// whose password page carries them into the form. Whatever comes in, the answer is never a 5xx,
// and the Location (and the form's hidden field) is a path on the same host made of visible ASCII:
// no `//` or `/\` in front, no scheme, no raw byte beyond ASCII, nothing a browser would read as
// another origin.
import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { ownerWithSite } from "../test/factories";
import { hostOf } from "../test/sites";
import { RawConnection } from "../test/rawHttp";
import { updateSitePassword } from "../db/repositories/sites";

/** Where a protected site's password form posts. */
const PASSWORD_PATH = "/.berth/password";
const PASSWORD = "the site password";

/** A stored hash with a tiny scrypt cost, so thousands of right passwords verify quickly. */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 16, r: 1, p: 1 });
  return `scrypt$16$1$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** The seeded generator of the edge fuzz, so a failure replays. */
function generator(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const int = (max: number) => Math.floor(next() * max);
  return { next, pick, int };
}

/** A form value percent-encoded byte by byte from UTF-8 (a lone surrogate becomes U+FFFD's bytes). */
const formEncode = (value: string) => [...Buffer.from(value, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

/**
 * Path-absolute and not readable as a network path (`//`, `/\`); only what RFC 3986 allows in a
 * path and query (so visible ASCII), anything else as a whole %XX escape.
 */
const SAFE_PATH = /^\/(?![/\\])(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;

describe.each(DRIVERS)("the site password form's next (%s)", (driver) => {
  let server: TestServer;
  let host: string;

  beforeAll(async () => {
    server = await getTestServer(driver);
    const { site, user } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Locked</h1>" }]);
    // Set before the edge has seen the host, so its first lookup reads the password.
    await updateSitePassword(server.ctx.db, user.id, site.id, cheapHash(PASSWORD));
    host = hostOf(site.url);
  });
  afterAll(() => server.close());

  /** The Location is a path of this host: resolved against the site, the origin stays. */
  const expectSameSitePath = (location: string | undefined, label: string) => {
    expect(location, label).toMatch(SAFE_PATH);
    const resolved = new URL(location!, `http://${host}/somewhere/deep`);
    expect(resolved.host, label).toBe(host);
    expect(resolved.protocol, label).toBe("http:");
  };

  it("redirects every posted next to a same-site path of visible ASCII, never a 5xx", { timeout: 240_000 }, async () => {
    const { next, pick, int } = generator(4242);
    const pieces = [
      "/",
      "//",
      "\\",
      "/\\",
      "\\\\",
      "evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "http://evil.example/",
      "https:evil.example",
      "data:text/html,x",
      "%00",
      "\u0000",
      "\r",
      "\n",
      "\r\nSet-Cookie: stolen=1",
      "\t",
      " ",
      "\x7f",
      "\x85",
      "é",
      "ÿ",
      "\u00a0",
      "\u0100",
      "€",
      "\u2028",
      "\u202e",
      "\ufeff",
      "\ufffd",
      "😀",
      "\ud800",
      "\udfff",
      "\udc00\ud800",
      "%",
      "%2",
      "%zz",
      "%2F",
      "%2f%2f",
      "%5C",
      "%0d%0a",
      "%E2%82%AC",
      "%ED%A0%80",
      "%FF",
      "?",
      "#",
      "&",
      "=",
      "+",
      "'",
      '"',
      "<script>",
      ">",
      "..",
      ".",
      "./",
      "../",
      "@",
      ":",
      ";",
      "[",
      "]",
      "{",
      "}",
      "|",
      "^",
      "`",
      "~",
      "docs",
      "index.html",
      "a?b=c&d=e",
      "x".repeat(200),
    ];
    const lengths = [0, 1, 2, 3, 5, 8];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const parts = Array.from({ length: pick(lengths) }, () => pick(pieces));
      let value = (next() < 0.85 ? "/" : "") + parts.join("");
      if (next() < 0.02) value = "/" + "ä".repeat(int(3000));
      if (next() < 0.02) value = "/" + "a".repeat(int(5000));
      // Encoded as a browser does, or sent as raw characters, which the form parser takes as they come.
      const encoded = next() < 0.7 ? formEncode(value) : value.replace(/[&=+%]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
      const fields = [`password=${formEncode(PASSWORD)}`, `next=${encoded}`];
      if (next() < 0.5) fields.reverse();
      const label = `next=${JSON.stringify(value.slice(0, 200))} (${value.length} characters)`;
      const response = await server.edge.get(host, PASSWORD_PATH, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: fields.join("&"),
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status, label).toBeLessThan(500);
      if (response.status === 303) {
        expectSameSitePath(response.headers.location, label);
        expect(response.headers["set-cookie"]?.[0], label).toMatch(/^berth_site_pass=/);
      } else {
        // Only a body past the form's limit is refused; it shows the form again.
        expect(response.status, label).toBe(413);
      }
    }
    expect(statuses.get(303) ?? 0).toBeGreaterThan(2500);
  });

  it("keeps a plain next as it was and encodes the rest, so the visitor lands where they were going", async () => {
    const post = async (value: string) =>
      server.edge.get(host, PASSWORD_PATH, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `password=${formEncode(PASSWORD)}&next=${formEncode(value)}`,
      });
    const cases: Array<[string, string]> = [
      ["/docs/page.html?a=1&b=two", "/docs/page.html?a=1&b=two"],
      ["/caf%C3%A9/", "/caf%C3%A9/"],
      ["/café/€/😀", "/caf%C3%A9/%E2%82%AC/%F0%9F%98%80"],
      ["/ÿ", "/%C3%BF"],
      ["/a b\r\nSet-Cookie: x=1", "/a%20b%0D%0ASet-Cookie:%20x=1"],
      ["/\ud800x", "/%EF%BF%BDx"],
      ["/100%", "/100%25"],
      ["/a\\b", "/a%5Cb"],
      ["//evil.example", "/"],
      ["/\\evil.example", "/"],
      ["javascript:alert(1)", "/"],
      ["https://evil.example/", "/"],
      ["", "/"],
    ];
    for (const [value, location] of cases) {
      const response = await post(value);
      expect(response.status, value).toBe(303);
      expect(response.headers.location, JSON.stringify(value)).toBe(location);
    }
  });

  it("puts a safe next in the password page's form, whatever bytes the request target held", { timeout: 120_000 }, async () => {
    const { pick, int } = generator(777);
    const port = await server.edge.port();
    // Visible ASCII the request parser takes, and now and then a byte it refuses (a 400).
    const bytes = [..."/\\%?#&'\"<>.:@!$()*+,;=~[]{}|^`abc", "%2", "%zz", "%41", "..", " ", "\xe9"];
    let pages = 0;
    for (let i = 0; i < 400; i++) {
      const target = "/" + Array.from({ length: 1 + int(12) }, () => pick(bytes)).join("");
      const connection = await RawConnection.open(port);
      try {
        connection.write(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "latin1"));
        const response = await connection.response({ timeoutMs: 5000 });
        const label = JSON.stringify(target);
        expect(response.status, label).toBeLessThan(500);
        if (response.status !== 401) continue;
        pages += 1;
        const field = /name="next" value="([^"]*)"/.exec(response.body.toString("utf8"))?.[1];
        const value = field
          ?.replace(/&#39;/g, "'")
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&amp;/g, "&");
        expectSameSitePath(value, label);
      } catch (error) {
        // The parser may close on bytes it refuses: that is a refusal, not a failure.
        if (!(error instanceof Error && error.message.startsWith("connection closed"))) throw error;
      } finally {
        connection.close();
      }
    }
    expect(pages).toBeGreaterThan(200);
  });
});
