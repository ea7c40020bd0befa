// The weekly summary on a real database: who gets it, the figures and changes in the mail, the ISO
// week's edges at Monday 00:00 UTC, and once per user and week with two workers and failing mail.
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertAnalyticsEvents, type AnalyticsEventRow } from "../test/rows";
import { claimWeeklySummary } from "../db/repositories/weeklySummaries";
import { rowsOf } from "../db/rows";
import { profiles, sites } from "../db/schema";
import { runWorkerTick } from "../jobs/worker";
import type { Mailer } from "../mail/mailer";
import { weeklySummaryMessage } from "../mail/templates";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile } from "../test/sites";
import { DRIVERS, TEST_APP_URL, getTestServer, type TestClient, type TestServer } from "../test/support";
import { rollUpAnalytics } from "./rollUpAnalytics";
import { dueSummaryWeek, lastCompleteWeek, sendWeeklySummaries, sortSiteWeeks } from "./sendWeeklySummaries";

const iso = (date: Date | null | undefined) => date?.toISOString();

describe("the summarised week", () => {
  it("is the ISO week before the current one, Monday 00:00 UTC to the next Monday", () => {
    // Wednesday.
    const week = lastCompleteWeek(new Date("2026-03-11T15:00:00Z"));
    expect([iso(week.start), iso(week.end)]).toEqual(["2026-03-02T00:00:00.000Z", "2026-03-09T00:00:00.000Z"]);
    // Sunday's last millisecond still belongs to the week that is not over.
    expect(iso(lastCompleteWeek(new Date("2026-03-08T23:59:59.999Z")).end)).toBe("2026-03-02T00:00:00.000Z");
    // Monday 00:00 ends the week before it.
    expect(iso(lastCompleteWeek(new Date("2026-03-09T00:00:00.000Z")).start)).toBe("2026-03-02T00:00:00.000Z");
    // Across a new year (1 January 2026 is a Thursday).
    expect(iso(lastCompleteWeek(new Date("2026-01-05T12:00:00Z")).start)).toBe("2025-12-29T00:00:00.000Z");
  });

  it("is due on Mondays from 01:00 UTC until Tuesday 00:00 UTC", () => {
    expect(dueSummaryWeek(new Date("2026-03-09T00:00:00.000Z"))).toBeNull();
    expect(dueSummaryWeek(new Date("2026-03-09T00:59:59.999Z"))).toBeNull();
    expect(iso(dueSummaryWeek(new Date("2026-03-09T01:00:00.000Z"))?.start)).toBe("2026-03-02T00:00:00.000Z");
    expect(iso(dueSummaryWeek(new Date("2026-03-09T23:59:59.999Z"))?.start)).toBe("2026-03-02T00:00:00.000Z");
    expect(dueSummaryWeek(new Date("2026-03-10T00:00:00.000Z"))).toBeNull();
    expect(dueSummaryWeek(new Date("2026-03-08T12:00:00.000Z"))).toBeNull();
  });

  it("lists sites by views, then by name", () => {
    const site = (siteId: string, name: string, views: number) => ({ siteId, name, views, visitors: 0, previousViews: 0, previousVisitors: 0 });
    expect(sortSiteWeeks([site("1", "b", 5), site("2", "z", 9), site("3", "a", 5)]).map((s) => s.siteId)).toEqual(["2", "3", "1"]);
  });
});

describe("the weekly summary message", () => {
  const base = {
    name: "Ada",
    weekStart: new Date("2026-03-02T00:00:00Z"),
    weekEnd: new Date("2026-03-09T00:00:00Z"),
    dashboardLink: "http://app/dashboard/sites",
  };
  const site = (name: string, views: number, visitors: number, previousViews: number) => ({
    name,
    views,
    visitors,
    previousViews,
    link: `http://app/${name}`,
  });

  it("counts in the subject, with singular and plural", () => {
    expect(weeklySummaryMessage("a@x.test", { ...base, sites: [site("A", 1000, 3, 0), site("B", 234, 1, 0)] }).subject).toBe(
      "Your sites this week: 1,234 views",
    );
    expect(weeklySummaryMessage("a@x.test", { ...base, sites: [site("A", 1, 1, 0)] }).subject).toBe("Your sites this week: 1 view");
  });

  it("gives each site's change, 'new' without views the week before, and nothing when neither week had any", () => {
    const { text } = weeklySummaryMessage("a@x.test", {
      ...base,
      sites: [site("Up", 150, 9, 100), site("Down", 1, 1, 3), site("New", 2, 2, 0), site("Still", 0, 0, 0)],
    });
    expect(text).toContain("Up: 150 views (+50%), 9 visitors\nhttp://app/Up\n");
    expect(text).toContain("Down: 1 view (-67%), 1 visitor\n");
    expect(text).toContain("New: 2 views (new), 2 visitors\n");
    expect(text).toContain("Still: 0 views, 0 visitors\n");
    expect(text).toContain("your sites had 153 page views from 12 visitors, up 49% on the week before.");
  });

  it("names the week's days across months and years", () => {
    const at = (weekStart: string) => {
      const start = new Date(weekStart);
      return weeklySummaryMessage("a@x.test", {
        ...base,
        weekStart: start,
        weekEnd: new Date(start.getTime() + 7 * 86_400_000),
        sites: [site("A", 0, 0, 0)],
      }).text;
    };
    expect(at("2026-03-02T00:00:00Z")).toContain("In the week of 2 to 8 March 2026 (UTC), your sites had 0 page views from 0 visitors.");
    expect(at("2026-03-30T00:00:00Z")).toContain("In the week of 30 March to 5 April 2026 (UTC)");
    expect(at("2025-12-29T00:00:00Z")).toContain("In the week of 29 December 2025 to 4 January 2026 (UTC)");
  });
});

// The week summarised: Monday 2 March to Monday 9 March 2026; the one before starts 23 February.
const NOW = new Date("2026-03-09T09:00:00Z");
const WEEK = "2026-03-02T00:00:00.000Z";

const visit = (siteId: string, at: string, visitor: string, requests: number): AnalyticsEventRow => ({
  site_id: siteId,
  at,
  host_kind: "subdomain",
  path: "/",
  status: 200,
  page_view: true,
  bot: false,
  referrer_host: null,
  country: null,
  visitor,
  requests,
  bytes: 100,
});

describe.each(DRIVERS)("weekly summaries (%s)", (driver) => {
  let server: TestServer;

  beforeEach(async () => {
    server = await getTestServer(driver);
  });
  afterEach(() => server.close());

  async function member(name: string, weeklySummary: boolean): Promise<{ client: TestClient; email: string; id: string }> {
    const { client, user } = await signedInClient(server, { name });
    const response = await client.request("PUT", "/api/me/notifications", { json: { deployFailed: true, domainActive: true, weeklySummary } });
    expect(response.statusCode).toBe(200);
    return { client, email: user.email, id: user.id };
  }

  /** A site that existed long before the weeks in question (sites made now would be newer). */
  async function oldSite(client: TestClient, name: string): Promise<string> {
    const site = await createSiteWith(client, htmlFile(), name);
    await server.ctx.db
      .update(sites)
      .set({ created_at: new Date("2026-01-01T00:00:00Z") })
      .where(eq(sites.id, site.id));
    return site.id;
  }

  /** The outbox also holds the sign-up mails. */
  const summaries = () => server.outbox.messages().filter((m) => m.subject.startsWith("Your sites this week"));

  async function seed(rows: AnalyticsEventRow[]): Promise<void> {
    await insertAnalyticsEvents(server.ctx.db, rows);
    await rollUpAnalytics(server.ctx);
  }

  const claims = async () =>
    rowsOf<{ user_id: string; week: string | Date }>(
      await server.ctx.db.execute(sql`select user_id, week from weekly_summaries order by user_id`),
    ).map((r) => ({
      user_id: r.user_id,
      week: new Date(r.week).toISOString(),
    }));

  /** Ada, who asked for the summary, with a site that had one visit in the summarised week. */
  async function ada(): Promise<{ client: TestClient; email: string; id: string }> {
    const user = await member("Ada", true);
    const site = await oldSite(user.client, "Blog");
    await seed([visit(site, "2026-03-03T10:00:00Z", "a", 1)]);
    return user;
  }

  it("mails each site's views, visitors and change to the user who asked, once, counting the ISO week exactly", async () => {
    const { client, email, id } = await member("Ada Lovelace", true);
    const blog = await oldSite(client, "Blog");
    const docs = await oldSite(client, "Docs");
    const old = await oldSite(client, "Old");
    const gone = await oldSite(client, "Gone");
    await seed([
      // Before the week before: counted nowhere.
      visit(blog, "2026-02-22T23:59:00Z", "x", 500),
      // The week before, up to its last minute.
      visit(blog, "2026-02-23T00:00:00Z", "p", 900),
      visit(blog, "2026-03-01T23:59:00Z", "q", 87),
      visit(old, "2026-02-25T12:00:00Z", "r", 3),
      // The week: from Monday 00:00 to Sunday's last minute.
      visit(blog, "2026-03-02T00:00:00Z", "a", 1000),
      visit(blog, "2026-03-08T23:59:00Z", "b", 234),
      visit(docs, "2026-03-04T08:00:00Z", "e", 12),
      visit(gone, "2026-03-04T08:00:00Z", "g", 100),
      // Monday 00:00 starts the next week: not in this summary.
      visit(blog, "2026-03-09T00:00:00Z", "c", 50),
    ]);
    expect((await client.delete(`/api/sites/${gone}`)).statusCode).toBe(200);

    // Not asked for, banned, without a site, and with only a site made after the week: no mail.
    const bob = await member("Bob", false);
    await seed([visit(await oldSite(bob.client, "Bob's"), "2026-03-03T10:00:00Z", "b1", 5)]);
    const cy = await member("Cy", true);
    await seed([visit(await oldSite(cy.client, "Cy's"), "2026-03-03T10:00:00Z", "c1", 5)]);
    await server.ctx.db.update(profiles).set({ banned_at: new Date() }).where(eq(profiles.id, cy.id));
    await member("Dee", true);
    const eve = await member("Eve", true);
    await createSiteWith(eve.client, htmlFile(), "Eve's");

    expect(await sendWeeklySummaries(server.ctx, NOW)).toBe(1);
    const messages = summaries();
    expect(messages.map((m) => m.to)).toEqual([email]);
    const [mail] = messages;
    expect(mail!.subject).toBe("Your sites this week: 1,246 views");
    expect(mail!.text).toContain("Hi Ada Lovelace,");
    // 1,246 against 987 + 3 the week before.
    expect(mail!.text).toContain(
      "In the week of 2 to 8 March 2026 (UTC), your sites had 1,246 page views from 3 visitors, up 26% on the week before.",
    );
    const lines = mail!.text.split("\n");
    const siteLines = lines.filter((line) => /^(Blog|Docs|Old|Gone):/.test(line));
    expect(siteLines).toEqual(["Blog: 1,234 views (+25%), 2 visitors", "Docs: 12 views (new), 1 visitor", "Old: 0 views (-100%), 0 visitors"]);
    expect(mail!.links).toEqual([
      `${TEST_APP_URL}/dashboard/sites/${blog}?tab=analytics`,
      `${TEST_APP_URL}/dashboard/sites/${docs}?tab=analytics`,
      `${TEST_APP_URL}/dashboard/sites/${old}?tab=analytics`,
      `${TEST_APP_URL}/dashboard/sites`,
    ]);
    expect(mail!.text).toContain("You can turn it off in Settings, Notifications.");
    expect(await claims()).toEqual([{ user_id: id, week: WEEK }]);

    // Later ticks of the same Monday, through the worker: nothing more.
    expect(await sendWeeklySummaries(server.ctx, new Date("2026-03-09T09:01:00Z"))).toBe(0);
    await runWorkerTick(server.ctx, undefined, new Date("2026-03-09T20:00:00Z"));
    expect(summaries()).toHaveLength(1);
  });

  it("is sent by the worker's tick only within Monday from 01:00 UTC", async () => {
    const { email } = await ada();
    for (const at of ["2026-03-08T23:59:00Z", "2026-03-09T00:00:00Z", "2026-03-09T00:59:00Z", "2026-03-10T00:00:00Z", "2026-03-12T09:00:00Z"]) {
      await runWorkerTick(server.ctx, undefined, new Date(at));
    }
    expect(summaries()).toEqual([]);
    await runWorkerTick(server.ctx, undefined, new Date("2026-03-09T01:00:00Z"));
    expect(summaries().map((m) => [m.to, m.subject])).toEqual([[email, "Your sites this week: 1 view"]]);
  });

  it("sends nothing to a user who turned the summary off", async () => {
    const { client } = await ada();
    const off = await client.request("PUT", "/api/me/notifications", { json: { deployFailed: true, domainActive: true, weeklySummary: false } });
    expect(off.statusCode).toBe(200);
    expect(await sendWeeklySummaries(server.ctx, NOW)).toBe(0);
    expect(summaries()).toEqual([]);
  });

  it("sends one mail when two workers run at once", async () => {
    const { email } = await ada();
    const results = await Promise.all([sendWeeklySummaries(server.ctx, NOW), sendWeeklySummaries(server.ctx, NOW)]);
    expect(results.sort()).toEqual([0, 1]);
    expect(summaries().filter((m) => m.to === email)).toHaveLength(1);
  });

  it("leaves a user to the worker that claimed them while its mail is still on its way", async () => {
    const { email } = await ada();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const sending = new Promise<void>((resolve) => (reached = resolve));
    // The first worker's mail server is slow: the claim is made, the mail not yet sent.
    const slow: Mailer = {
      async send(message) {
        reached();
        await held;
        await server.ctx.mailer.send(message);
      },
    };
    const first = sendWeeklySummaries({ ...server.ctx, mailer: slow }, NOW);
    await sending;
    expect(await sendWeeklySummaries(server.ctx, NOW)).toBe(0);
    expect(summaries()).toEqual([]);
    release();
    expect(await first).toBe(1);
    expect(summaries().filter((m) => m.to === email)).toHaveLength(1);
  });

  it("claims a user's week once, and never for a user who turned the summary off or is banned", async () => {
    const { id } = await ada();
    const week = new Date(WEEK);
    const won = await Promise.all(Array.from({ length: 5 }, () => claimWeeklySummary(server.ctx.db, id, week, NOW)));
    expect(won.filter(Boolean)).toHaveLength(1);

    const off = await member("Off", false);
    expect(await claimWeeklySummary(server.ctx.db, off.id, week, NOW)).toBe(false);
    const banned = await member("Banned", true);
    await server.ctx.db.update(profiles).set({ banned_at: new Date() }).where(eq(profiles.id, banned.id));
    expect(await claimWeeklySummary(server.ctx.db, banned.id, week, NOW)).toBe(false);
    expect(await claims()).toEqual([{ user_id: id, week: WEEK }]);
  });

  it("gives the week back when the mail fails, and the next tick sends it", async () => {
    const { email } = await ada();
    const failing: Mailer = {
      send: () => Promise.reject(new Error("connection refused")),
    };
    expect(await sendWeeklySummaries({ ...server.ctx, mailer: failing }, NOW)).toBe(0);
    expect(await claims()).toEqual([]);
    expect(await sendWeeklySummaries(server.ctx, new Date("2026-03-09T09:01:00Z"))).toBe(1);
    expect(summaries().filter((m) => m.to === email)).toHaveLength(1);
  });
});
