// `berth admin` in both of its modes, on both databases: with no server running (the CLI takes
// the lock and opens the database itself) and with a live server holding the data directory
// (the command goes over the admin socket, and the server's edge reacts at once).
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { eq } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "../db/client";
import { profiles, sessions, sites, users } from "../db/schema";
import { DRIVERS, getTestServer, TEST_APP_URL, type Driver, type TestDatabase, type TestServer } from "../test/support";
import { buildUser, signedInClient, type BuiltUser } from "../test/factories";
import { createSiteWith, hostOf, htmlFile } from "../test/sites";
import { startAdminSocket, type AdminSocket } from "../adminSocket";
import { runCli } from "./run";

const ROOT_EMAIL = "root@berth.test";
const SECRET = "test-secret-test-secret-test-secret-0123";

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(env: Record<string, string>, ...argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    socketWaitMs: 300,
  });
  return { code, stdout, stderr };
}

/** A database the CLI can open by itself: PGlite inside the data dir, or a PostgreSQL database by URL. */
async function databaseInDataDir(driver: Driver, dataDir: string): Promise<{ database: TestDatabase; env: Record<string, string> }> {
  if (driver === "pglite") {
    const pgliteDir = path.join(dataDir, "db");
    cpSync(inject("pgliteTemplateDir"), pgliteDir, { recursive: true });
    const database = await openDatabase({ pgliteDir });
    return { database: { ...database, destroy: () => database.close() }, env: {} };
  }
  const name = `${inject("runId")}_cli_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
  await admin.connect();
  await admin.query(`create database "${name}" template "${inject("postgresTemplate")}"`);
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database: {
      ...database,
      async destroy() {
        await database.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    },
    env: { DATABASE_URL: url.toString() },
  };
}

// With no server running, each command opens the database itself (PGlite: a few seconds on a busy
// machine), so a test of several commands needs more than the default 30 s.
const SEVERAL_COMMANDS = { timeout: 120_000 };

describe.each(DRIVERS)("berth admin with no server running (%s)", (driver) => {
  let dataDir: string;
  let env: Record<string, string>;
  let database: TestDatabase;
  let alice: BuiltUser;
  let bob: BuiltUser;
  let aliceSiteId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-cli-"));
    const made = await databaseInDataDir(driver, dataDir);
    database = made.database;
    env = { BERTH_DATA_DIR: dataDir, BERTH_APP_URL: TEST_APP_URL, BERTH_SECRET: SECRET, BERTH_ADMIN_EMAILS: ROOT_EMAIL, ...made.env };
    const server = await getTestServer(driver, { database, dataDir, env: { BERTH_ADMIN_EMAILS: ROOT_EMAIL } });
    await buildUser(server, { email: ROOT_EMAIL, name: "Root" });
    const signedIn = await signedInClient(server, { name: "Alice Liddell" });
    alice = signedIn.user;
    aliceSiteId = (await createSiteWith(signedIn.client, htmlFile("<h1>Alice</h1>"))).id;
    bob = await buildUser(server, { name: "Bob" });
    // Let go of the database, as a stopped server would: PGlite allows one process only.
    await server.app.close();
    await server.edge.close();
    await database.close();
  });

  afterAll(async () => {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Reads the database after the CLI let go of it. */
  async function inspect<T>(read: (db: Database["db"]) => Promise<T>): Promise<T> {
    const reopened = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: path.join(dataDir, "db") });
    try {
      return await read(reopened.db);
    } finally {
      await reopened.close();
    }
  }

  it("sets a plan, lists users as a table, and lets go of the lock each time", SEVERAL_COMMANDS, async () => {
    const setPlan = await cli(env, "admin", "set-plan", alice.email.toUpperCase(), "pro");
    expect(setPlan).toEqual({ code: 0, stdout: `${alice.email} is now on the Pro plan.\n`, stderr: "" });
    expect(existsSync(path.join(dataDir, "berth.lock"))).toBe(false);

    const list = await cli(env, "admin", "list-users");
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^EMAIL +NAME +PLAN +STORAGE +SITES +STATUS +ADMIN$/);
    // Newest first.
    expect(lines.slice(1, 4).map((line) => line.split(/\s{2,}/)[0])).toEqual([bob.email, alice.email, ROOT_EMAIL]);
    expect(lines[2]!.split(/\s{2,}/)).toEqual([alice.email, "Alice Liddell", "pro", "14 Bytes", "1", "active", "-"]);
    expect(lines[3]!.split(/\s{2,}/)).toEqual([ROOT_EMAIL, "Root", "free", "0 Bytes", "0", "active", "yes (config)"]);
    expect(lines.at(-1)).toBe("3 users.");

    const searched = await cli(env, "admin", "list-users", "--search", "liddell", "--json");
    expect(searched.code).toBe(0);
    const result = JSON.parse(searched.stdout);
    expect(result).toMatchObject({ total: 1, page: 1, users: [{ email: alice.email, plan: "pro", siteCount: 1 }] });
    expect(await inspect(async (db) => (await db.select().from(profiles).where(eq(profiles.id, alice.id)))[0]?.plan)).toBe("pro");
  });

  it("takes the plans of BERTH_PLANS_FILE, and no other, when the operator has one", SEVERAL_COMMANDS, async () => {
    const plansFile = path.join(dataDir, "plans.json");
    const limits = { storageBytes: 1024 * 1024, maxFileBytes: 1024, deploymentsKept: 1 };
    const plans = [
      { id: "free", name: "Free", price: "$0", default: true, limits },
      { id: "gold", name: "Gold", price: "$9", limits },
    ];
    writeFileSync(plansFile, JSON.stringify({ plans, upgradeTo: "gold" }));
    const withFile = { ...env, BERTH_PLANS_FILE: plansFile };
    expect(await cli(withFile, "admin", "set-plan", bob.email, "gold")).toEqual({
      code: 0,
      stdout: `${bob.email} is now on the Gold plan.\n`,
      stderr: "",
    });
    const pro = await cli(withFile, "admin", "set-plan", bob.email, "pro");
    expect(pro.code).toBe(2);
    expect(pro.stderr).toMatch(/^Unknown plan "pro": choose free or gold\.\n\nUsage:/);
    expect(await inspect(async (db) => (await db.select().from(profiles).where(eq(profiles.id, bob.id)))[0]?.plan)).toBe("gold");
    expect((await cli(withFile, "admin", "set-plan", bob.email, "free")).code).toBe(0);
  });

  it("bans, unbans, promotes and demotes, with clear errors and exit codes", SEVERAL_COMMANDS, async () => {
    expect((await cli(env, "admin", "ban", bob.email)).stdout).toMatch(/is banned: signed out everywhere/);
    expect((await cli(env, "admin", "list-users", "--search", "bob")).stdout).toMatch(/banned/);
    expect((await cli(env, "admin", "unban", bob.email)).code).toBe(0);
    expect((await cli(env, "admin", "promote", bob.email)).stdout).toBe(`${bob.email} is now an admin.\n`);
    const promoted = await cli(env, "admin", "promote", bob.email, "--json");
    expect(JSON.parse(promoted.stdout)).toMatchObject({ id: bob.id, email: bob.email, isAdmin: true, adminByConfig: false });
    expect(await inspect(async (db) => (await db.select().from(profiles).where(eq(profiles.id, bob.id)))[0])).toMatchObject({
      is_admin: true,
      banned_at: null,
    });
    expect((await cli(env, "admin", "demote", bob.email)).code).toBe(0);

    const unknown = await cli(env, "admin", "set-plan", "nobody@example.com", "pro");
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: "Error: No user has the e-mail address nobody@example.com\n" });
    const badPlan = await cli(env, "admin", "set-plan", alice.email, "platinum");
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toMatch(/^Unknown plan "platinum": choose free or pro\.\n\nUsage:/);
    const configAdmin = await cli(env, "admin", "demote", ROOT_EMAIL);
    expect(configAdmin.code).toBe(1);
    expect(configAdmin.stderr).toMatch(/is an admin through BERTH_ADMIN_EMAILS and cannot be demoted/);
    expect((await cli(env, "admin", "ban", ROOT_EMAIL)).code).toBe(1);
    expect(await inspect(async (db) => (await db.select().from(profiles).where(eq(profiles.id, bob.id)))[0]?.is_admin)).toBe(false);
  });

  it("e-mails a reset link into the outbox", SEVERAL_COMMANDS, async () => {
    const reset = await cli(env, "admin", "reset-password", alice.email);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(
      new RegExp(`^A password-reset e-mail was sent to ${alice.email.replace(/\./g, "\\.")}\\. BERTH_SMTP_URL is not set`),
    );
    const { Outbox } = await import("../test/outbox");
    expect(new Outbox(path.join(dataDir, "outbox")).lastLink(alice.email, /Reset your Berth password/)).toMatch(
      /\/api\/auth\/reset-password\/[^?]+\?callbackURL=%2Fauth%2Fupdate-password$/,
    );
  });

  it("deletes a user only with --yes", SEVERAL_COMMANDS, async () => {
    const unconfirmed = await cli(env, "admin", "delete-user", alice.email);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/Add --yes to confirm/);
    expect(await inspect(async (db) => db.select().from(users).where(eq(users.id, alice.id)))).toHaveLength(1);

    const deleted = await cli(env, "admin", "delete-user", alice.email, "--yes");
    expect(deleted).toEqual({ code: 0, stdout: `Deleted ${alice.email} and all their data (1 site).\n`, stderr: "" });
    expect(await inspect(async (db) => db.select().from(users).where(eq(users.id, alice.id)))).toHaveLength(0);
    expect(await inspect(async (db) => db.select().from(sites).where(eq(sites.id, aliceSiteId)))).toHaveLength(0);
    expect((await cli(env, "admin", "delete-user", alice.email, "--yes")).code).toBe(1);
  });

  it("refuses a data directory that does not exist, without creating it", async () => {
    if (driver === "postgres") return;
    const missing = path.join(dataDir, "no-such-dir");
    const run = await cli({ ...env, BERTH_DATA_DIR: missing }, "admin", "list-users");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not exist/);
    expect(existsSync(missing)).toBe(false);
    const empty = mkdtempSync(path.join(os.tmpdir(), "berth-cli-empty-"));
    const noDb = await cli({ ...env, BERTH_DATA_DIR: empty }, "admin", "list-users");
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toMatch(/There is no Berth database/);
    expect(existsSync(path.join(empty, "db"))).toBe(false);
    rmSync(empty, { recursive: true, force: true });
  });

  it("prints the help with exit code 0, and a bad setting with exit code 1", async () => {
    const help = await cli(env, "admin", "help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/set-plan <email> <plan>/);
    const badEnv = await cli({ ...env, BERTH_ADMIN_EMAILS: "not-an-address" }, "admin", "list-users");
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toMatch(/BERTH_ADMIN_EMAILS: "not-an-address" is not an e-mail address/);
  });
});

describe.each(DRIVERS)("berth admin with a live server (%s)", (driver) => {
  let server: TestServer;
  let socket: AdminSocket | undefined;
  let holder: ChildProcess;
  let env: Record<string, string>;
  let dataDir: string;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_ADMIN_EMAILS: ROOT_EMAIL } });
    dataDir = server.ctx.env.dataDir;
    // A socket file left by a crashed process is replaced.
    writeFileSync(path.join(dataDir, "admin.sock"), "stale");
    socket = await startAdminSocket(server.ctx, dataDir);
    // The live server's lock: held by another process, as when Berth runs beside the CLI.
    holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    writeFileSync(path.join(dataDir, "berth.lock"), String(holder.pid));
    env = { BERTH_DATA_DIR: dataDir, BERTH_APP_URL: TEST_APP_URL, BERTH_SECRET: SECRET, BERTH_ADMIN_EMAILS: ROOT_EMAIL };
    await buildUser(server, { email: ROOT_EMAIL });
  });

  afterAll(async () => {
    holder.kill();
    await socket?.close();
    await server.close();
  });

  it("reports the server's memory after a full collection", async () => {
    const report = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const request = http.get({ socketPath: path.join(dataDir, "admin.sock"), path: "/memory", agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode, ...JSON.parse(body) }));
      });
      request.on("error", reject);
    });
    expect(report).toMatchObject({
      status: 200,
      heapUsed: expect.any(Number),
      heapLimit: expect.any(Number),
      external: expect.any(Number),
      rss: expect.any(Number),
    });
  });

  it("listens on a socket only its owner can use", () => {
    expect(statSync(path.join(dataDir, "admin.sock")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, "admin.sock")).isSocket()).toBe(true);
  });

  it("runs commands in the server: a ban takes the user's site off the edge at once", async () => {
    const { client, user } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>served</h1>"));
    expect((await server.edge.get(hostOf(site.url), "/")).status).toBe(200);

    const ban = await cli(env, "admin", "ban", user.email);
    expect(ban).toEqual({ code: 0, stdout: `${user.email} is banned: signed out everywhere, and their sites are no longer served.\n`, stderr: "" });
    // The lock is still the server's: the CLI did not open the database.
    expect(existsSync(path.join(dataDir, "berth.lock"))).toBe(true);
    expect((await server.edge.get(hostOf(site.url), "/")).status).toBe(404);
    expect(await server.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);

    const setPlan = await cli(env, "admin", "set-plan", user.email, "pro");
    expect(setPlan.code).toBe(0);
    const list = await cli(env, "admin", "list-users", "--search", user.email, "--json");
    expect(JSON.parse(list.stdout).users[0]).toMatchObject({ email: user.email, plan: "pro", bannedAt: expect.any(String), siteCount: 1 });

    expect((await cli(env, "admin", "unban", user.email)).code).toBe(0);
    expect((await server.edge.get(hostOf(site.url), "/")).text).toBe("<h1>served</h1>");
  });

  it("passes the server's refusals on with exit code 1", async () => {
    const unknown = await cli(env, "admin", "ban", "ghost@example.com");
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: "Error: No user has the e-mail address ghost@example.com\n" });
    const configAdmin = await cli(env, "admin", "delete-user", ROOT_EMAIL, "--yes");
    expect(configAdmin.code).toBe(1);
    expect(configAdmin.stderr).toMatch(/BERTH_ADMIN_EMAILS and cannot be deleted/);
  });

  it("refuses what is not a command", async () => {
    const post = (body: string, pathname = "/commands") =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request({ socketPath: path.join(dataDir, "admin.sock"), method: "POST", path: pathname }, (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        request.on("error", reject);
        request.end(body);
      });
    expect(await post("{")).toEqual({
      status: 400,
      body: JSON.stringify({ error: { code: "invalid_request", message: "The command is not JSON" } }),
    });
    expect((await post(JSON.stringify({ command: "drop-everything" }))).status).toBe(400);
    expect((await post(JSON.stringify({ command: "set-plan", email: ROOT_EMAIL, plan: "gold" }))).status).toBe(400);
    expect((await post("{}", "/other")).status).toBe(404);
    expect((await post("x".repeat(100 * 1024))).status).toBe(413);
  });

  it("says so when the server holding the data directory does not listen for commands", async () => {
    await socket!.close();
    socket = undefined;
    expect(existsSync(path.join(dataDir, "admin.sock"))).toBe(false);
    const run = await cli(env, "admin", "list-users");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`Berth \\(pid ${holder.pid}\\) is using .* but does not accept admin commands`));
  });
});
