// The help page's support form, the admins' inbox (list, handled, reply by mail) and requests for
// Pro (one open per user, answered by an admin, approval setting the plan), on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { signedInClient, type BuiltUser } from "../../test/factories";
import { contactMessages, notifications, profiles, upgradeRequests } from "../../db/schema";
import type {
  AdminMessage,
  AdminMessagesResponse,
  AdminUpgradeRequestsResponse,
  MyUpgradeRequestResponse,
  UpgradeRequest,
} from "../../../common/support";

const ADMIN_EMAIL = "helpdesk@berth.test";
const NOT_FOUND = { error: { code: "not_found", message: "Not found" } };

describe.each(DRIVERS)("support, inbox and upgrade requests (%s)", (driver) => {
  let server: TestServer;
  let admin: TestClient;
  let adminUser: BuiltUser;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_ADMIN_EMAILS: ADMIN_EMAIL } });
    ({ client: admin, user: adminUser } = await signedInClient(server, { email: ADMIN_EMAIL, name: "Help Desk" }));
  });
  afterAll(() => server.close());

  const noticesOf = async (userId: string, kind: "support_message" | "upgrade_requested" | "upgrade_answered") =>
    server.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, userId), eq(notifications.kind, kind)));
  const planOf = async (userId: string) =>
    (await server.ctx.db.select({ plan: profiles.plan }).from(profiles).where(eq(profiles.id, userId)))[0]?.plan;

  it("sends a support message in the account's name, stored as support from that user and mailed to the operator", async () => {
    const { client, user } = await signedInClient(server, { name: "Ada Lovelace" });
    const response = await client.post("/api/support", {
      subject: "Domain stuck",
      message: "My domain has been checking DNS for an hour.",
      name: "Forged",
    });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await server.ctx.db.select().from(contactMessages).where(eq(contactMessages.user_id, user.id));
    expect(row).toMatchObject({ kind: "support", name: "Ada Lovelace", email: user.email, subject: "Domain stuck", handled_at: null });
    expect(row!.delivered_at).toBeInstanceOf(Date);
    const mail = server.outbox.messagesTo("operator@berth.test").find((m) => m.subject === "[Berth support] Domain stuck");
    expect(mail?.headers["reply-to"]).toBe(user.email);
    expect(mail?.text).toContain(`Account: ${user.id}`);
  });

  it("refuses a support message from a guest and an empty one", async () => {
    expect((await server.client().post("/api/support", { subject: "Hi", message: "Hello" })).statusCode).toBe(401);
    const { client } = await signedInClient(server);
    const empty = await client.post("/api/support", { subject: "Hi", message: " " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.message).toBe("Message is required");
  });

  it("lists messages newest first with the unhandled count, marks one handled and replies to it by mail", async () => {
    const { client, user } = await signedInClient(server, { name: "Grace" });
    await client.post("/api/support", { subject: "First", message: "one" });
    await client.post("/api/support", { subject: "Second", message: "two" });
    const listed = (await admin.get("/api/admin/messages")).json<AdminMessagesResponse>();
    expect(listed.messages.slice(0, 2).map((m) => m.subject)).toEqual(["Second", "First"]);
    expect(listed.messages[0]).toMatchObject({ kind: "support", userId: user.id, email: user.email, handledAt: null, reply: null });
    const before = listed.unhandled;

    const first = listed.messages[1]!;
    const handled = await admin.patch(`/api/admin/messages/${first.id}`, { handled: true });
    expect(handled.statusCode, handled.body).toBe(200);
    expect(handled.json<AdminMessage>().handledAt).not.toBeNull();
    expect((await admin.get("/api/admin/messages")).json<AdminMessagesResponse>().unhandled).toBe(before - 1);

    const second = listed.messages[0]!;
    const replied = await admin.post(`/api/admin/messages/${second.id}/reply`, { message: "It is fixed now.\nThanks for telling us." });
    expect(replied.statusCode, replied.body).toBe(200);
    expect(replied.json<AdminMessage>()).toMatchObject({ reply: { text: "It is fixed now.\nThanks for telling us.", by: ADMIN_EMAIL } });
    expect(replied.json<AdminMessage>().handledAt).not.toBeNull();
    const [mail] = server.outbox.messagesTo(user.email).filter((m) => m.subject === "Re: Second");
    expect(mail?.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(mail?.headers["reply-to"]).toBe("operator@berth.test");
    expect(mail?.text).toContain("It is fixed now.\nThanks for telling us.");
    expect(mail?.text).not.toContain("two");
    expect((await admin.get("/api/admin/messages")).json<AdminMessagesResponse>().unhandled).toBe(before - 2);

    const again = await admin.post(`/api/admin/messages/${second.id}/reply`, { message: "And again" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("already_replied");
    expect(server.outbox.messagesTo(user.email).filter((m) => m.subject === "Re: Second")).toHaveLength(1);
  });

  it("keeps the inbox and the requests from everyone but admins: the 404 of an unknown route", async () => {
    const { client, user } = await signedInClient(server);
    await client.post("/api/support", { subject: "Mine", message: "secret text" });
    const [row] = await server.ctx.db.select().from(contactMessages).where(eq(contactMessages.user_id, user.id));
    const request = (await client.post("/api/upgrade-request", {})).json<UpgradeRequest>();
    for (const call of [
      () => client.get("/api/admin/messages"),
      () => client.patch(`/api/admin/messages/${row!.id}`, { handled: true }),
      () => client.post(`/api/admin/messages/${row!.id}/reply`, { message: "hi" }),
      () => client.get("/api/admin/upgrade-requests"),
      () => client.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "approve" }),
    ]) {
      const response = await call();
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
    expect(await planOf(user.id)).toBe("free");
    const [after] = await server.ctx.db.select().from(contactMessages).where(eq(contactMessages.id, row!.id));
    expect(after!.handled_at).toBeNull();
  });

  it("takes one open request per user, tells the admins, and the approval sets the plan and tells the user", async () => {
    const { client, user } = await signedInClient(server, { name: "Linus" });
    expect((await client.get("/api/upgrade-request")).json<MyUpgradeRequestResponse>()).toEqual({ request: null });
    const created = await client.post("/api/upgrade-request", {});
    expect(created.statusCode, created.body).toBe(201);
    const request = created.json<UpgradeRequest>();
    expect(request.status).toBe("pending");
    // A client that names no plan asks for the one 'Upgrade' offers, and the request says so.
    expect(request.plan).toBe("pro");

    const second = await client.post("/api/upgrade-request", {});
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toEqual({
      code: "upgrade_request_open",
      message: "You have already asked for Pro. An admin will answer that request; you'll get a notification.",
    });
    expect(await server.ctx.db.select().from(upgradeRequests).where(eq(upgradeRequests.user_id, user.id))).toHaveLength(1);
    expect((await noticesOf(adminUser.id, "upgrade_requested")).map((n) => n.title)).toContain("Linus asks for Pro");

    const pending = (await admin.get("/api/admin/upgrade-requests")).json<AdminUpgradeRequestsResponse>();
    expect(pending.requests.find((r) => r.id === request.id)).toMatchObject({ plan: "pro", user: { id: user.id, email: user.email, plan: "free" } });

    const approved = await admin.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "approve" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<UpgradeRequest>().status).toBe("approved");
    expect(await planOf(user.id)).toBe("pro");
    expect((await client.get("/api/stats")).json().plan).toBe("pro");
    expect((await noticesOf(user.id, "upgrade_answered")).map((n) => n.title)).toEqual(["Your account is now on Pro"]);
    expect((await client.get("/api/upgrade-request")).json<MyUpgradeRequestResponse>().request?.status).toBe("approved");

    const twice = await admin.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "decline" });
    expect(twice.statusCode).toBe(409);
    expect(await planOf(user.id)).toBe("pro");
    const onPro = await client.post("/api/upgrade-request", {});
    expect(onPro.statusCode).toBe(409);
    expect(onPro.json().error.code).toBe("already_pro");
  });

  it("declines: the plan stays Free, the user is told, and may ask again", async () => {
    const { client, user } = await signedInClient(server);
    const request = (await client.post("/api/upgrade-request", {})).json<UpgradeRequest>();
    const declined = await admin.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "decline" });
    expect(declined.json<UpgradeRequest>().status).toBe("declined");
    expect(await planOf(user.id)).toBe("free");
    expect((await noticesOf(user.id, "upgrade_answered")).map((n) => n.title)).toEqual(["Your request for Pro was declined"]);
    expect((await client.post("/api/upgrade-request", {})).statusCode).toBe(201);
  });

  it("answers 404 for an unknown message or request id", async () => {
    expect((await admin.patch("/api/admin/messages/not-a-uuid", { handled: true })).statusCode).toBe(404);
    expect((await admin.post("/api/admin/messages/00000000-0000-4000-8000-000000000000/reply", { message: "x" })).statusCode).toBe(404);
    expect((await admin.post("/api/admin/upgrade-requests/00000000-0000-4000-8000-000000000000/answer", { decision: "approve" })).statusCode).toBe(
      404,
    );
  });
});

describe("without BERTH_CONTACT_EMAIL", () => {
  it("puts every new message in each admin's feed; a billing page replaces requests", async () => {
    const server = await getTestServer("pglite", {
      env: { BERTH_CONTACT_EMAIL: "", BERTH_ADMIN_EMAILS: ADMIN_EMAIL, BERTH_UPGRADE_URL: "https://billing.example.com/berth" },
    });
    try {
      const { user: configAdmin } = await signedInClient(server, { email: ADMIN_EMAIL });
      const { user: promoted } = await signedInClient(server);
      await server.ctx.db.update(profiles).set({ is_admin: true }).where(eq(profiles.id, promoted.id));
      const { client, user } = await signedInClient(server);
      expect((await client.post("/api/support", { subject: "Help", message: "Please" })).statusCode).toBe(200);
      expect(
        (await server.client().post("/api/contact", { name: "Visitor", email: "v@example.com", subject: "Hi", message: "Hello" })).statusCode,
      ).toBe(200);
      for (const adminId of [configAdmin.id, promoted.id]) {
        const notices = await server.ctx.db.select().from(notifications).where(eq(notifications.user_id, adminId));
        expect(notices.map((n) => [n.kind, n.title, n.link])).toEqual(
          expect.arrayContaining([
            ["support_message", `Support request from ${user.name}: Help`, "/dashboard/admin"],
            ["support_message", "Message from Visitor: Hi", "/dashboard/admin"],
          ]),
        );
      }
      expect(await server.ctx.db.select().from(notifications).where(eq(notifications.user_id, user.id))).toHaveLength(0);
      expect(server.outbox.messages().filter((m) => /^\[Berth (support|contact)\]/.test(m.subject))).toEqual([]);

      const refused = await client.post("/api/upgrade-request", {});
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe("upgrade_elsewhere");
    } finally {
      await server.close();
    }
  });
});

describe("a reply whose mail cannot be sent", () => {
  it("answers 502 and records nothing", async () => {
    // Port 9 (discard) on loopback: nothing listens, so the SMTP connection is refused at once.
    const server = await getTestServer("pglite", { env: { BERTH_ADMIN_EMAILS: ADMIN_EMAIL, BERTH_SMTP_URL: "smtp://127.0.0.1:9" } });
    try {
      const { client: admin } = await signedInClient(server, { email: ADMIN_EMAIL });
      const [row] = await server.ctx.db.insert(contactMessages).values({ name: "V", email: "v@example.com", subject: "S", message: "M" }).returning();
      const response = await admin.post(`/api/admin/messages/${row!.id}/reply`, { message: "Hello" });
      expect(response.statusCode).toBe(502);
      expect(response.json().error.code).toBe("mail_failed");
      const [after] = await server.ctx.db.select().from(contactMessages).where(eq(contactMessages.id, row!.id));
      expect(after).toMatchObject({ reply_text: null, replied_at: null, handled_at: null });
    } finally {
      await server.close();
    }
  });
});
