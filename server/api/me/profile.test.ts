import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { profiles, users } from "../../db/schema";
import type { MeResponse } from "../../../common/api";

describe.each(DRIVERS)("the profile (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_ADMIN_EMAILS: "Operator.Admin@example.com" } });
  });
  afterAll(() => server.close());

  it("GET /api/me tells the plan, admin status and two-factor status", async () => {
    const { client, user } = await signedInClient(server, { name: "Grace Hopper" });
    const me = (await client.get("/api/me")).json<MeResponse>();
    expect(me).toMatchObject({
      user: { id: user.id, email: user.email, name: "Grace Hopper" },
      profile: { id: user.id, full_name: "Grace Hopper", company: null, website: null, avatar_url: null },
      account: { plan: "free", isAdmin: false, twoFactorEnabled: false },
    });

    await server.ctx.db.update(profiles).set({ plan: "pro", is_admin: true }).where(eq(profiles.id, user.id));
    await server.ctx.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
    expect((await client.get("/api/me")).json<MeResponse>().account).toEqual({ plan: "pro", isAdmin: true, twoFactorEnabled: true });
  });

  it("counts the e-mails in BERTH_ADMIN_EMAILS as admins, whatever their case", async () => {
    const { client } = await signedInClient(server, { email: "operator.admin@example.com" });
    expect((await client.get("/api/me")).json<MeResponse>().account.isAdmin).toBe(true);
  });

  it("saves the profile, clears empty fields, and renames the account for the greeting", async () => {
    const { client, user } = await signedInClient(server, { name: "Old Name" });
    const saved = await client.patch("/api/me/profile", {
      full_name: "  Ada Lovelace ",
      company: "Analytical Engines",
      website: "https://ada.example",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<MeResponse>()).toMatchObject({
      user: { name: "Ada Lovelace" },
      profile: { full_name: "Ada Lovelace", company: "Analytical Engines", website: "https://ada.example" },
    });
    // better-auth's own view of the user (what a fresh page load reads) follows too.
    const session = await client.get("/api/auth/get-session");
    expect(session.json().user.name).toBe("Ada Lovelace");
    expect((await client.get("/api/me")).json<MeResponse>().profile.full_name).toBe("Ada Lovelace");

    const cleared = await client.patch("/api/me/profile", { full_name: "Ada Lovelace", company: "", website: "  " });
    expect(cleared.json<MeResponse>().profile).toMatchObject({ company: null, website: null });
    const [row] = await server.ctx.db.select().from(profiles).where(eq(profiles.id, user.id));
    expect(row).toMatchObject({ full_name: "Ada Lovelace", company: null, website: null });
  });

  it.each([
    [{ full_name: "", company: "", website: "" }, "full_name"],
    [{ full_name: "A", company: "", website: "javascript:alert(1)" }, "website"],
    [{ full_name: "A", company: "", website: "ada.example" }, "website"],
    [{ full_name: "A".repeat(101), company: "", website: "" }, "full_name"],
    [{ full_name: "A", company: "x".repeat(101), website: "" }, "company"],
  ])("refuses %j and changes nothing", async (body, field) => {
    const { client, user } = await signedInClient(server, { name: "Unchanged" });
    const response = await client.patch("/api/me/profile", body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("invalid_request");
    expect(Object.keys(response.json().error.fields)).toContain(field);
    const [row] = await server.ctx.db.select().from(profiles).where(eq(profiles.id, user.id));
    expect(row?.full_name).toBe("Unchanged");
  });

  it("changes only the signed-in user's profile", async () => {
    const owner = await signedInClient(server, { name: "Owner" });
    const other = await signedInClient(server, { name: "Other" });
    await other.client.patch("/api/me/profile", { full_name: "Intruder", company: "", website: "", id: owner.user.id, user_id: owner.user.id });
    expect((await owner.client.get("/api/me")).json<MeResponse>().profile.full_name).toBe("Owner");
    expect((await other.client.get("/api/me")).json<MeResponse>().profile.full_name).toBe("Intruder");
  });

  it.each([
    ["GET /api/me", (s: TestServer) => s.client().get("/api/me")],
    ["PATCH /api/me/profile", (s: TestServer) => s.client().patch("/api/me/profile", { full_name: "Guest", company: "", website: "" })],
  ])("%s as a guest is 401", async (_name, call) => {
    const response = await call(server);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("not_authenticated");
  });
});
