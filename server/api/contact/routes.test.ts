import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "../../db/schema";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { CONTACT_LIMIT } from "../../../common/limits";
import { CONTACT_TEXT } from "../../../common/texts";

const valid = { name: "Grace Hopper", email: "grace@example.com", subject: "Hello", message: "I found a bug in a relay." };

describe.each(DRIVERS)("POST /api/contact (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it.each([
    [{ ...valid, name: "   " }, "name", CONTACT_TEXT.nameRequired],
    [{ ...valid, email: "" }, "email", CONTACT_TEXT.emailRequired],
    [{ ...valid, email: "grace@" }, "email", CONTACT_TEXT.emailInvalid],
    [{ ...valid, subject: "" }, "subject", CONTACT_TEXT.subjectRequired],
    [{ ...valid, message: "" }, "message", CONTACT_TEXT.messageRequired],
    [{ email: "grace@example.com", subject: "x", message: "y" }, "name", CONTACT_TEXT.nameRequired],
  ])("rejects %j with the field's exact message and stores nothing", async (body, field, message) => {
    const response = await server.client({ ip: "192.0.2.1" }).post("/api/contact", body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[field]).toBe(message);
    expect(await server.ctx.db.select().from(contactMessages)).toHaveLength(0);
  });

  it("rejects a body that is not JSON", async () => {
    const response = await server.client({ ip: "192.0.2.1" }).request("POST", "/api/contact", {
      headers: { "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(400);
  });

  it("stores a valid message and mails it to the operator", async () => {
    const response = await server.client({ ip: "192.0.2.2" }).post("/api/contact", valid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const rows = await server.ctx.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: valid.name, email: valid.email, subject: valid.subject, message: valid.message });
    expect(rows[0]!.delivered_at).toBeInstanceOf(Date);
    const [mail] = server.outbox.messagesTo("operator@berth.test");
    expect(mail?.subject).toBe("[Berth contact] Hello");
    expect(mail?.headers["reply-to"]).toBe("grace@example.com");
    expect(mail?.text).toContain("I found a bug in a relay.");
  });

  it("refuses a cross-site post, such as one from a hosted site", async () => {
    const response = await server.client({ ip: "192.0.2.3" }).post("/api/contact", valid, { origin: "http://evil.localhost:8080" });
    expect(response.statusCode).toBe(403);
  });

  it("limits messages per address", async () => {
    const client = server.client({ ip: "192.0.2.50" });
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await client.post("/api/contact", valid)).statusCode).toBe(200);
    const limited = await client.post("/api/contact", valid);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe("rate_limited");
  });
});

describe("POST /api/contact without BERTH_CONTACT_EMAIL", () => {
  it("stores the message and mails nobody", async () => {
    const server = await getTestServer("pglite", { env: { BERTH_CONTACT_EMAIL: "" } });
    try {
      const response = await server.client().post("/api/contact", valid);
      expect(response.statusCode).toBe(200);
      const rows = await server.ctx.db.select().from(contactMessages);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.delivered_at).toBeNull();
      expect(server.outbox.messages()).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
