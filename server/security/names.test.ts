// Names people give themselves reach e-mails, some of them sent to any address typed at sign-up.
// On every path that sets one (sign-up, better-auth's update-user, the Settings profile, and any
// other write of the user row) a name is trimmed, at most 100 characters and one line; a
// 60,000-character or multi-line name is refused with a clear error and stores nothing. The mails
// to an address nobody has confirmed carry no name at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { buildUser, signedInClient } from "../test/factories";
import { profiles, users } from "../db/schema";
import { NAME_TEXT } from "../../common/names";
import { INVALID_NAME_CODE } from "../auth/auth";

const HUGE = "A".repeat(60_000);
const MULTI_LINE = "Ann\n\nYour account is locked. Call +1 555 0100 to unlock it.\n\n— Berth";

/** Bad names and the message each gets. */
const REFUSED: Array<[string, string, string]> = [
  ["a 60,000-character name", HUGE, NAME_TEXT.tooLong],
  ["101 characters", "B".repeat(101), NAME_TEXT.tooLong],
  ["a multi-line name", MULTI_LINE, NAME_TEXT.oneLine],
  ["a carriage return", "Ann\rBcc: someone", NAME_TEXT.oneLine],
  ["a NUL", "Ann\u0000", NAME_TEXT.oneLine],
  ["a Unicode line separator", "Ann\u2028Second line", NAME_TEXT.oneLine],
  ["a right-to-left override", "Ann\u202Edesrever", NAME_TEXT.oneLine],
  ["only spaces", "   ", NAME_TEXT.required],
];

describe.each(DRIVERS)("names (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const userRow = async (email: string) => (await server.ctx.db.select().from(users).where(eq(users.email, email)))[0];
  const profileRow = async (id: string) => (await server.ctx.db.select().from(profiles).where(eq(profiles.id, id)))[0];
  let n = 0;
  const freshEmail = () => `names.${++n}.${Date.now()}@example.com`;

  describe("sign-up", () => {
    it.each(REFUSED)("refuses %s with a clear error, creates no account and sends no mail", async (_label, name, message) => {
      const email = freshEmail();
      const response = await server.client().post("/api/auth/sign-up/email", { email, password: "correct horse battery", name });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(response.json()).toMatchObject({ code: INVALID_NAME_CODE, message });
      expect(await userRow(email)).toBeUndefined();
      expect(server.outbox.messagesTo(email)).toEqual([]);
    });

    it("answers an address that has an account the same way, so the error tells nothing", async () => {
      const existing = await buildUser(server);
      for (const [label, name, message] of REFUSED) {
        const response = await server.client().post("/api/auth/sign-up/email", { email: existing.email, password: "another password 1", name });
        expect(response.statusCode, label).toBe(400);
        expect(response.json(), label).toMatchObject({ code: INVALID_NAME_CODE, message });
      }
      expect(server.outbox.messagesTo(existing.email).filter((m) => /tried to sign up/.test(m.subject))).toEqual([]);
    });

    it("trims the name it keeps, in the user and the profile", async () => {
      const email = freshEmail();
      const response = await server.client().post("/api/auth/sign-up/email", { email, password: "correct horse battery", name: "  Ann Example \t" });
      expect(response.statusCode, response.body).toBe(200);
      const user = (await userRow(email))!;
      expect(user.name).toBe("Ann Example");
      expect((await profileRow(user.id))!.full_name).toBe("Ann Example");
    });
  });

  describe("better-auth's update-user", () => {
    it.each(REFUSED)("refuses %s with a clear error and keeps the name", async (_label, name, message) => {
      const { client, user } = await signedInClient(server, { name: "Kept Name" });
      const response = await client.post("/api/auth/update-user", { name });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(response.json()).toMatchObject({ code: INVALID_NAME_CODE, message });
      expect((await userRow(user.email))!.name).toBe("Kept Name");
    });

    it("trims a good name, and leaves the name alone when the body has none", async () => {
      const { client, user } = await signedInClient(server, { name: "Old Name" });
      expect((await client.post("/api/auth/update-user", { name: "  New Name  " })).statusCode).toBe(200);
      expect((await userRow(user.email))!.name).toBe("New Name");
      expect((await client.post("/api/auth/update-user", { image: null })).statusCode).toBe(200);
      expect((await userRow(user.email))!.name).toBe("New Name");
    });
  });

  describe("the Settings profile", () => {
    it.each(REFUSED)("refuses %s with a clear error and changes nothing", async (_label, name, message) => {
      const { client, user } = await signedInClient(server, { name: "Kept Name" });
      const response = await client.patch("/api/me/profile", { full_name: name, company: "", website: "" });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(response.json().error).toMatchObject({ code: "invalid_request", message, fields: { full_name: message } });
      expect((await userRow(user.email))!.name).toBe("Kept Name");
      expect((await profileRow(user.id))!.full_name).toBe("Kept Name");
    });
  });

  it("any other write of the user row keeps the rules too (better-auth's own adapter, as a plugin would)", async () => {
    const user = await buildUser(server, { name: "Kept Name" });
    const { internalAdapter } = await server.ctx.auth.$context;
    for (const [label, name] of REFUSED) {
      await expect(internalAdapter.updateUser(user.id, { name }), label).rejects.toMatchObject({ body: { code: INVALID_NAME_CODE } });
    }
    await expect(
      internalAdapter.createUser({ email: freshEmail(), name: MULTI_LINE, emailVerified: false }, { method: "email-password" }),
    ).rejects.toMatchObject({ body: { code: INVALID_NAME_CODE } });
    expect((await userRow(user.email))!.name).toBe("Kept Name");
  });

  it("refuses a multi-line name or subject on the contact form, which heads the operator's mail", async () => {
    for (const body of [
      { name: MULTI_LINE, email: "ann@example.com", subject: "Hello", message: "Hi." },
      { name: "Ann", email: "ann@example.com", subject: "Hello\nFrom: Berth", message: "Hi." },
    ]) {
      const response = await server.client().post("/api/contact", body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe("invalid_request");
    }
  });

  it("refuses a multi-line site name, which the owner's mails carry", async () => {
    const { client } = await signedInClient(server);
    const { createSiteWith, htmlFile } = await import("../test/sites");
    const site = await createSiteWith(client, htmlFile());
    const response = await client.patch(`/api/sites/${site.id}`, { name: "Site\nYour account is locked" });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.message).toMatch(/single line/);
  });

  it("puts no name in the mails sent to an address nobody has confirmed", async () => {
    const email = freshEmail();
    const name = "Your account is locked, call +1 555 0100";
    const client = server.client();
    expect((await client.post("/api/auth/sign-up/email", { email, password: "correct horse battery", name })).statusCode).toBe(200);
    // A second sign-up for the same address, and a reset, reach the same mailbox.
    expect((await client.post("/api/auth/sign-up/email", { email, password: "correct horse battery", name: "Someone Else" })).statusCode).toBe(200);
    expect((await client.post("/api/auth/request-password-reset", { email, redirectTo: "/auth/update-password" })).statusCode).toBe(200);
    const mails = server.outbox.messagesTo(email);
    expect(mails.map((m) => m.subject)).toEqual(expect.arrayContaining(["Confirm your e-mail address for Berth", "Reset your Berth password"]));
    for (const mail of mails) {
      expect(mail.text).not.toContain("locked");
      expect(mail.text).not.toContain("Someone Else");
      expect(mail.text.startsWith("Hello,\n")).toBe(true);
      expect(mail.headers["content-type"]).toBe("text/plain; charset=utf-8");
    }
  });
});
