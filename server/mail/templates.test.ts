// What user-given text can do inside Berth's mails. Every message is one text/plain part, so a name
// with markup is shown as the characters it is, never read as HTML. A name is greeted on one line
// and cut to the name's limit whatever the stored row holds (rows from before the rules, or edited
// by hand), so it cannot write lines that read as Berth's own; the account mails have no name.
import { describe, expect, it } from "vitest";
import { renderRfc822 } from "./message";
import {
  deploymentFailedMessage,
  domainActiveMessage,
  existingAccountMessage,
  resetPasswordMessage,
  verifyEmailMessage,
  weeklySummaryMessage,
} from "./templates";
import { NAME_MAX_LENGTH } from "../../common/names";

const LINK = "http://localhost:8080/dashboard/sites/1";
const notices = (name: string, siteName = "My site") => [
  deploymentFailedMessage("ann@example.com", { name, siteName, version: 2, error: "bad _redirects", link: LINK }),
  domainActiveMessage("ann@example.com", { name, siteName, domain: "ann.example", link: LINK }),
  weeklySummaryMessage("ann@example.com", {
    name,
    weekStart: new Date("2026-11-16T00:00:00Z"),
    weekEnd: new Date("2026-11-23T00:00:00Z"),
    sites: [{ name: siteName, views: 3, visitors: 2, previousViews: 1, link: LINK }],
    dashboardLink: LINK,
  }),
];

describe("names in mails", () => {
  it("sends one text/plain part, so markup in a name stays text", () => {
    for (const message of notices("<b>Ann</b> <a href=x>click</a>")) {
      const raw = renderRfc822("Berth <no-reply@berth.test>", message);
      expect(raw).toContain("Content-Type: text/plain; charset=utf-8\r\n");
      expect(raw).not.toMatch(/text\/html|multipart/i);
      expect(message.text.split("\n")[0]).toBe("Hi <b>Ann</b> <a href=x>click</a>,");
    }
  });

  it("greets on one line, whatever the stored name holds", () => {
    const stored = "Ann\r\n\r\nYour account is locked.\u2028Call +1 555 0100\u202E\u0000";
    for (const message of notices(stored)) {
      const first = message.text.split("\n")[0]!;
      expect(first).toBe("Hi Ann Your account is locked. Call +1 555 0100,");
      expect(message.text).not.toMatch(/^Your account is locked/m);
      expect([...message.text].filter((c) => "\r\u2028\u202E\u0000".includes(c))).toEqual([]);
    }
  });

  it("cuts a 60,000-character name to the name's limit", () => {
    for (const message of notices("A".repeat(60_000))) {
      const first = message.text.split("\n")[0]!;
      expect(Array.from(first.slice("Hi ".length, -1))).toHaveLength(NAME_MAX_LENGTH);
      expect(first.endsWith("…,")).toBe(true);
      expect(message.text.length).toBeLessThan(3000);
    }
  });

  it("keeps site names on one line too, subject included", () => {
    const [failed, active, summary] = notices("Ann", "Site\nYour account is locked");
    expect(failed!.subject).toBe("Deployment of Site Your account is locked failed");
    for (const message of [failed!, active!, summary!]) expect(message.text).not.toMatch(/^Your account is locked/m);
  });

  it("greets no one by name in the mails to an unconfirmed address", () => {
    for (const message of [
      verifyEmailMessage("ann@example.com", "http://localhost:8080/verify"),
      resetPasswordMessage("ann@example.com", "http://localhost:8080/reset"),
      existingAccountMessage("ann@example.com", "http://localhost:8080/auth/forgot-password"),
    ]) {
      expect(message.text.startsWith("Hello,\n\n")).toBe(true);
    }
  });
});
