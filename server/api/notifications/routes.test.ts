// The bell's API: the feed a page at a time, the unread count, marking read, and where each kind
// of notice goes (the feed, e-mail to a real SMTP server). Another user's notice is never seen,
// counted or marked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { MarkAllReadResponse, Notification, NotificationChannels, NotificationListResponse } from "../../../common/notifications";
import { DEFAULT_NOTIFICATION_CHANNELS } from "../../../common/notifications";
import { notifications } from "../../db/schema";
import { notify, type Notice } from "../../services/notifications/notify";
import { signedInClient, type BuiltUser } from "../../test/factories";
import { SmtpReceiver } from "../../test/smtpReceiver";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";

describe.each(DRIVERS)("the notification feed (%s)", (driver) => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    server = await getTestServer(driver, { env: { BERTH_SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const notice = (user: BuiltUser, title: string, extra: Partial<Notice> = {}) =>
    notify(server.ctx, { userId: user.id, kind: "support_message", title, ...extra });
  const list = async (client: TestClient, query = "") => {
    const response = await client.get(`/api/notifications${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<NotificationListResponse>();
  };
  /** Mails to the user but the address confirmation every sign-up gets. */
  const mailsTo = (user: BuiltUser) => smtp.to(user.email).filter((mail) => !/Confirm your e-mail/.test(mail.subject));
  const unread = async (client: TestClient) => (await client.get("/api/notifications/unread-count")).json<{ unread_count: number }>().unread_count;

  it("starts empty", async () => {
    const { client } = await signedInClient(server);
    expect(await list(client)).toEqual({ notifications: [], next_cursor: null, unread_count: 0 });
    expect(await unread(client)).toBe(0);
  });

  it("lists the user's notices newest first, a page at a time, with the unread count", async () => {
    const { client, user } = await signedInClient(server);
    for (let i = 1; i <= 5; i++) await notice(user, `Notice ${i}`, { body: `Body ${i}`, link: "/dashboard" });
    const first = await list(client, "?limit=2");
    expect(first.notifications.map((n) => n.title)).toEqual(["Notice 5", "Notice 4"]);
    expect(first.unread_count).toBe(5);
    expect(first.notifications[0]).toEqual({
      id: expect.any(String),
      kind: "support_message",
      title: "Notice 5",
      body: "Body 5",
      link: "/dashboard",
      site_id: null,
      created_at: expect.stringMatching(/Z$/),
      read_at: null,
    });
    const second = await list(client, `?limit=2&before=${encodeURIComponent(first.next_cursor!)}`);
    expect(second.notifications.map((n) => n.title)).toEqual(["Notice 3", "Notice 2"]);
    const third = await list(client, `?limit=2&before=${encodeURIComponent(second.next_cursor!)}`);
    expect(third.notifications.map((n) => n.title)).toEqual(["Notice 1"]);
    expect(third.next_cursor).toBeNull();
    expect(await unread(client)).toBe(5);
  });

  it("keeps one order for notices of the same instant", async () => {
    const { client, user } = await signedInClient(server);
    for (let i = 1; i <= 4; i++) await notice(user, `Same ${i}`);
    await server.ctx.db
      .update(notifications)
      .set({ created_at: new Date("2026-11-01T10:00:00.000Z") })
      .where(eq(notifications.user_id, user.id));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: NotificationListResponse = await list(client, `?limit=1${cursor ? `&before=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...page.notifications.map((n) => n.title));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual(["Same 1", "Same 2", "Same 3", "Same 4"]);
  });

  it.each([
    "nonsense",
    "2026-13-45T99:00:00.000Z_00000000-0000-0000-0000-000000000000",
    "2026-11-01T10:00:00.000Z_------------------------------------",
  ])("refuses the cursor %j with 400", async (cursor) => {
    const { client } = await signedInClient(server);
    expect((await client.get(`/api/notifications?before=${encodeURIComponent(cursor)}`)).statusCode).toBe(400);
  });

  it("marks one read (keeping the first time), then all, and the count follows", async () => {
    const { client, user } = await signedInClient(server);
    for (const title of ["One", "Two", "Three"]) await notice(user, title);
    const [three, two] = (await list(client)).notifications;
    const marked = await client.post(`/api/notifications/${three!.id}/read`, {});
    expect(marked.statusCode, marked.body).toBe(200);
    const read = marked.json<Notification>();
    expect(read).toMatchObject({ id: three!.id, title: "Three", read_at: expect.any(String) });
    expect(await unread(client)).toBe(2);
    const again = (await client.post(`/api/notifications/${three!.id}/read`, {})).json<Notification>();
    expect(again.read_at).toBe(read.read_at);
    expect(await unread(client)).toBe(2);

    const all = await client.post("/api/notifications/read-all", {});
    expect(all.json<MarkAllReadResponse>()).toEqual({ marked: 2 });
    expect(await unread(client)).toBe(0);
    const listed = (await list(client)).notifications;
    expect(listed.every((n) => n.read_at !== null)).toBe(true);
    expect(listed.find((n) => n.id === three!.id)!.read_at).toBe(read.read_at);
    expect(listed.find((n) => n.id === two!.id)!.read_at).not.toBeNull();
    expect((await client.post("/api/notifications/read-all", {})).json()).toEqual({ marked: 0 });
  });

  it("never shows, counts or marks another user's notice", async () => {
    const owner = await signedInClient(server);
    const other = await signedInClient(server);
    await notice(owner.user, "Owner's secret");
    const [mine] = (await list(owner.client)).notifications;

    expect((await list(other.client)).notifications).toEqual([]);
    expect(await unread(other.client)).toBe(0);
    const theirs = await other.client.post(`/api/notifications/${mine!.id}/read`, {});
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain("Owner's secret");
    expect((await other.client.post("/api/notifications/read-all", {})).json()).toEqual({ marked: 0 });
    // Another user's cursor lists nothing of the owner's either.
    expect((await list(other.client, `?before=${encodeURIComponent("2999-01-01T00:00:00.000Z_" + mine!.id)}`)).notifications).toEqual([]);

    expect(await unread(owner.client)).toBe(1);
    expect((await list(owner.client)).notifications[0]!.read_at).toBeNull();
  });

  it("answers 404 for an id that is not one", async () => {
    const { client } = await signedInClient(server);
    expect((await client.post("/api/notifications/not-a-uuid/read", {})).statusCode).toBe(404);
    expect((await client.post("/api/notifications/00000000-0000-4000-8000-000000000000/read", {})).statusCode).toBe(404);
  });

  it.each([
    ["GET", "/api/notifications"],
    ["GET", "/api/notifications/unread-count"],
    ["POST", "/api/notifications/read-all"],
    ["GET", "/api/me/notifications/channels"],
  ] as const)("%s %s as a guest is 401", async (method, url) => {
    expect((await server.client().request(method, url, method === "POST" ? { json: {} } : {})).statusCode).toBe(401);
  });

  describe("channels", () => {
    const channels = async (client: TestClient) => (await client.get("/api/me/notifications/channels")).json<NotificationChannels>();
    const save = async (client: TestClient, body: unknown) => client.request("PUT", "/api/me/notifications/channels", { json: body });

    it("starts with every kind in the feed, and e-mail for a failed deployment and an active domain", async () => {
      const { client } = await signedInClient(server);
      const got = await channels(client);
      expect(got).toEqual(DEFAULT_NOTIFICATION_CHANNELS);
      expect(got.deploy_failed).toEqual({ feed: true, email: true });
      expect(got.domain_active).toEqual({ feed: true, email: true });
      expect(got.deploy_succeeded).toEqual({ feed: true, email: false });
    });

    it("changes the kinds named, keeps the rest, and writes no row for a kind out of the feed", async () => {
      const { client, user } = await signedInClient(server);
      const saved = await save(client, { channels: { support_message: { feed: false, email: false }, plan_changed: { feed: true, email: true } } });
      expect(saved.statusCode, saved.body).toBe(200);
      const after = saved.json<NotificationChannels>();
      expect(after.support_message).toEqual({ feed: false, email: false });
      expect(after.plan_changed).toEqual({ feed: true, email: true });
      expect(after.deploy_succeeded).toEqual({ feed: true, email: false });
      expect(await channels(client)).toEqual(after);

      await notice(user, "Not in the feed");
      await server.notices.settled();
      expect((await list(client)).notifications).toEqual([]);
      expect(mailsTo(user)).toEqual([]);
    });

    it("is the same setting as the deployment-failed and domain-active e-mail preferences", async () => {
      const { client } = await signedInClient(server);
      await save(client, { channels: { deploy_failed: { feed: true, email: false } } });
      expect((await client.get("/api/me/notifications")).json()).toEqual({ deployFailed: false, domainActive: true, weeklySummary: false });
      await client.request("PUT", "/api/me/notifications", { json: { deployFailed: true, domainActive: false, weeklySummary: false } });
      const got = await channels(client);
      expect(got.deploy_failed).toEqual({ feed: true, email: true });
      expect(got.domain_active).toEqual({ feed: true, email: false });
    });

    it("mails a notice of a kind the user wants by e-mail, through SMTP, to that user only", async () => {
      const { client, user } = await signedInClient(server, { name: "Ada Lovelace" });
      const other = await signedInClient(server);
      await save(client, { channels: { support_message: { feed: false, email: true } } });
      await notice(user, "Your ticket was answered", { body: "We looked at your question.", link: "/dashboard/settings" });
      await server.notices.settled();
      await expect.poll(() => mailsTo(user)).toHaveLength(1);
      const [mail] = mailsTo(user);
      expect(mail!.subject).toBe("Your ticket was answered");
      expect(mail!.headers["content-type"]).toMatch(/^text\/plain/);
      expect(mail!.text).toContain("Hi Ada Lovelace,");
      expect(mail!.text).toContain("We looked at your question.");
      expect(mail!.text).toContain('You get this message because you chose e-mail for "Support messages".');
      expect(mail!.links).toEqual(["http://localhost:8080/dashboard/settings"]);
      expect((await list(client)).notifications).toEqual([]);
      expect(mailsTo(other.user)).toEqual([]);
    });

    it.each([{ channels: { nope: { feed: true, email: true } } }, { channels: { deploy_failed: { feed: true } } }, {}, null])(
      "refuses %j and changes nothing",
      async (body) => {
        const { client } = await signedInClient(server);
        expect((await save(client, body)).statusCode).toBe(400);
        expect(await channels(client)).toEqual(DEFAULT_NOTIFICATION_CHANNELS);
      },
    );
  });
});
