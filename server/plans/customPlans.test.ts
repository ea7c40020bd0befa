// A server started with the operator's plans (BERTH_PLANS_FILE) runs on them alone: new accounts
// start on its default plan, its limits (unlimited ones too) are enforced, the admin and the CLI
// take its ids and no others, 'Upgrade' leads to its upgradeTo, GET /api/config sends it, and
// startup refuses a file that leaves an account on a plan it does not define.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublicConfigResponse } from "../../common/api";
import type { StatsResponse } from "../../common/sites";
import type { AdminUpgradeRequestsResponse, UpgradeRequest } from "../../common/support";
import { and, eq } from "drizzle-orm";
import { notifications } from "../db/schema";
import { runAdminCommand } from "../services/admin/runCommand";
import { buildUser, setPlan, signedInClient } from "../test/factories";
import { createSiteWith, postMultipart, type UploadPart } from "../test/sites";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { checkStoredPlans, UnknownStoredPlansError } from "./storedPlans";

const KB = 1024;
const MB = 1024 * KB;
const ADMIN_EMAIL = "operator.plans@example.com";

const FILE = {
  plans: [
    {
      id: "starter",
      name: "Starter",
      price: "$0",
      priceNote: "forever",
      default: true,
      limits: { storageBytes: 2 * MB, maxFileBytes: 1 * MB, deploymentsKept: 2 },
    },
    {
      id: "studio",
      name: "Studio",
      price: "$5",
      priceNote: "per month",
      limits: { storageBytes: 50 * MB, maxFileBytes: 10 * MB, deploymentsKept: 5 },
      features: { customDomains: true },
    },
    {
      id: "vault",
      name: "Vault",
      price: "Custom",
      limits: { storageBytes: null, maxFileBytes: null, deploymentsKept: null },
      features: { customDomains: true, fileVersioning: true },
    },
  ],
  upgradeTo: "studio",
};

/** An HTML file of `bytes` bytes whose content no other file has (storage counts a content once). */
function pageOf(bytes: number, name = "index.html"): UploadPart {
  const head = `<p>${randomBytes(8).toString("hex")}</p>`;
  return { name, content: head + "a".repeat(bytes - head.length), type: "text/html" };
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-custom-plans-"));
const plansFile = path.join(scratch, "plans.json");
writeFileSync(plansFile, JSON.stringify(FILE));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(DRIVERS)("a server on the operator's plans (%s)", (driver) => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: string;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_PLANS_FILE: plansFile, BERTH_ADMIN_EMAILS: ADMIN_EMAIL } });
    ({
      client: admin,
      user: { id: adminId },
    } = await signedInClient(server, { email: ADMIN_EMAIL }));
  });
  afterAll(() => server.close());

  it("sends the file's plans, and whether it backs up daily, in GET /api/config", async () => {
    const config = (await server.client().get("/api/config")).json<PublicConfigResponse>();
    expect(config.plans.defaultPlan).toBe("starter");
    expect(config.plans.upgradeTo).toBe("studio");
    expect(config.plans.plans.map((plan) => [plan.id, plan.name, plan.price, plan.storageBytes])).toEqual([
      ["starter", "Starter", "$0", 2 * MB],
      ["studio", "Studio", "$5", 50 * MB],
      ["vault", "Vault", "Custom", null],
    ]);
    // The test servers run with BERTH_BACKUP_DAILY=false.
    expect(config.backupDaily).toBe(false);
  });

  it("starts a new account on the default plan, with its limits", async () => {
    const { client } = await signedInClient(server);
    expect((await client.get("/api/me")).json().account.plan).toBe("starter");
    expect((await client.get("/api/stats")).json<StatsResponse>()).toMatchObject({
      plan: "starter",
      plan_name: "Starter",
      storage_quota: 2 * MB,
      max_file_bytes: 1 * MB,
      deployments_kept: 2,
      features: { customDomains: false, fileVersioning: false },
    });
  });

  it("enforces the default plan's largest file and storage", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, pageOf(900 * KB));
    const tooLarge = await postMultipart(client, `/api/sites/${site.id}/files`, {}, pageOf(1 * MB + 1, "big.html"));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.code).toBe("file_too_large");
    expect((await postMultipart(client, `/api/sites/${site.id}/files`, {}, pageOf(900 * KB, "two.html"))).statusCode).toBe(201);
    const full = await postMultipart(client, `/api/sites/${site.id}/files`, {}, pageOf(900 * KB, "three.html"));
    expect(full.statusCode).toBe(413);
    expect(full.json().error.code).toBe("quota_exceeded");
  });

  it("sets no limit where the plan leaves one null", async () => {
    const { client, user } = await signedInClient(server);
    await setPlan(server, user.id, "vault");
    const stats = (await client.get("/api/stats")).json<StatsResponse>();
    expect(stats).toMatchObject({ plan: "vault", storage_quota: null, max_file_bytes: null, deployments_kept: null });
    // Larger than any other plan's file and storage.
    const site = await createSiteWith(client, pageOf(12 * MB));
    expect((await postMultipart(client, `/api/sites/${site.id}/files`, {}, pageOf(45 * MB, "more.html"))).statusCode).toBe(201);
    expect((await client.get("/api/stats")).json<StatsResponse>().storage_used).toBeGreaterThan(50 * MB);
  });

  it("lets the admin give any of the file's plans, and no other", async () => {
    const user = await buildUser(server);
    const moved = await admin.patch(`/api/admin/users/${user.id}`, { plan: "vault" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().plan).toBe("vault");
    const pro = await admin.patch(`/api/admin/users/${user.id}`, { plan: "pro" });
    expect(pro.statusCode).toBe(400);
    expect(pro.json().error).toEqual({
      code: "unknown_plan",
      message: 'There is no plan "pro" on this server. Its plans are: starter, studio, vault.',
    });

    const command = await runAdminCommand(server.ctx, { command: "set-plan", email: user.email, plan: "studio" });
    expect(command).toMatchObject({ kind: "user", message: `${user.email} is now on the Studio plan.` });
    await expect(runAdminCommand(server.ctx, { command: "set-plan", email: user.email, plan: "free" })).rejects.toMatchObject({
      code: "unknown_plan",
    });
  });

  it("offers upgradeTo to the plans below it: an approved request moves there, and nothing is offered above it", async () => {
    const { client, user } = await signedInClient(server);
    const created = await client.post("/api/upgrade-request", {});
    expect(created.statusCode, created.body).toBe(201);
    const approved = await admin.post(`/api/admin/upgrade-requests/${created.json<UpgradeRequest>().id}/answer`, { decision: "approve" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await client.get("/api/stats")).json<StatsResponse>().plan).toBe("studio");

    const again = await client.post("/api/upgrade-request", {});
    expect(again.json().error).toEqual({ code: "already_pro", message: "Your account is on Studio already." });
    await setPlan(server, user.id, "vault");
    expect((await client.post("/api/upgrade-request", {})).json().error).toEqual({
      code: "already_pro",
      message: "Your account is on Vault, and this server offers no plan above it to ask for.",
    });
  });

  it("takes a request naming a plan above the account's, and the approval moves the account to that plan", async () => {
    const { client, user } = await signedInClient(server, { name: "Vera" });
    const created = await client.post("/api/upgrade-request", { plan: "vault" });
    expect(created.statusCode, created.body).toBe(201);
    const request = created.json<UpgradeRequest>();
    expect(request).toMatchObject({ status: "pending", plan: "vault" });
    const notices = async (userId: string, kind: "upgrade_requested" | "upgrade_answered") =>
      (
        await server.ctx.db
          .select({ title: notifications.title })
          .from(notifications)
          .where(and(eq(notifications.user_id, userId), eq(notifications.kind, kind)))
      ).map((n) => n.title);
    expect(await notices(adminId, "upgrade_requested")).toContain("Vera asks for Vault");
    const again = await client.post("/api/upgrade-request", { plan: "studio" });
    expect(again.json().error).toEqual({
      code: "upgrade_request_open",
      message: "You have already asked for Vault. An admin will answer that request; you'll get a notification.",
    });

    const pending = (await admin.get("/api/admin/upgrade-requests")).json<AdminUpgradeRequestsResponse>();
    expect(pending.requests.find((r) => r.id === request.id)).toMatchObject({ plan: "vault", user: { id: user.id, plan: "starter" } });
    const approved = await admin.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "approve" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<UpgradeRequest>()).toMatchObject({ status: "approved", plan: "vault" });
    expect((await client.get("/api/stats")).json<StatsResponse>().plan).toBe("vault");
    expect(await notices(user.id, "upgrade_answered")).toEqual(["Your account is now on Vault"]);
  });

  it("refuses a named plan the server lacks or does not offer the account, naming it, and makes no request", async () => {
    const { client, user } = await signedInClient(server);
    const unknown = await client.post("/api/upgrade-request", { plan: "gold" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toEqual({ code: "unknown_plan", message: 'This server has no plan "gold". Its plans: starter, studio, vault.' });
    expect((await client.post("/api/upgrade-request", { plan: "starter" })).json().error).toEqual({
      code: "plan_not_offered",
      message: "Your account is on Starter already.",
    });
    await setPlan(server, user.id, "vault");
    const down = await client.post("/api/upgrade-request", { plan: "studio" });
    expect(down.statusCode).toBe(409);
    expect(down.json().error.code).toBe("already_pro");
    await setPlan(server, user.id, "studio");
    const below = await client.post("/api/upgrade-request", { plan: "starter" });
    expect(below.statusCode).toBe(400);
    expect(below.json().error).toEqual({
      code: "plan_not_offered",
      message: "Starter is not offered to your account: it is on Studio, and only a plan listed above it can be asked for.",
    });
    expect((await client.get("/api/upgrade-request")).json().request).toBeNull();
    // Above upgradeTo the account may still ask for the plans listed after its own.
    const vault = await client.post("/api/upgrade-request", { plan: "vault" });
    expect(vault.statusCode, vault.body).toBe(201);
  });

  it("approves a named plan only while it is above the account's, never a step down", async () => {
    const { client, user } = await signedInClient(server);
    const request = (await client.post("/api/upgrade-request", { plan: "studio" })).json<UpgradeRequest>();
    await setPlan(server, user.id, "vault");
    const refused = await admin.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "approve" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("no_upgrade");
    expect((await client.get("/api/stats")).json<StatsResponse>().plan).toBe("vault");
    const declined = await admin.post(`/api/admin/upgrade-requests/${request.id}/answer`, { decision: "decline" });
    expect(declined.json<UpgradeRequest>()).toMatchObject({ status: "declined", plan: "studio" });
  });

  it("refuses, at startup, accounts on a plan the file does not define, naming them", async () => {
    await expect(checkStoredPlans(server.ctx.db, server.ctx.plans)).resolves.toBeUndefined();
    const strays = [await buildUser(server), await buildUser(server)];
    for (const stray of strays) await setPlan(server, stray.id, "pro");
    const refused = await checkStoredPlans(server.ctx.db, server.ctx.plans).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UnknownStoredPlansError);
    const message = (refused as Error).message;
    expect(message).toContain("accounts are on plans this server does not offer (its plans: starter, studio, vault");
    expect(message).toContain(`"pro": 2 accounts (${strays[0]!.email}, ${strays[1]!.email})`);
    expect(message).toContain("npm run berth -- admin set-plan <email> <plan>");
    for (const stray of strays) await setPlan(server, stray.id, "starter");
    await expect(checkStoredPlans(server.ctx.db, server.ctx.plans)).resolves.toBeUndefined();
  });

  it("refuses a plan id the server does not know as a bug, never guessing a plan", async () => {
    const { client, user } = await signedInClient(server);
    await setPlan(server, user.id, "gold");
    expect((await client.get("/api/stats")).statusCode).toBe(500);
    await setPlan(server, user.id, "starter");
    expect((await client.get("/api/stats")).statusCode).toBe(200);
  });
});
