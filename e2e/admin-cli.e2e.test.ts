// `npm run berth -- admin …` against the built server as a user runs it: while Berth runs the
// commands reach it over $BERTH_DATA_DIR/admin.sock; once it has stopped, the CLI opens the
// embedded database itself.
import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRO_PLAN } from "../server/plans/builtIn";
import { berthCli, startBerth, type Berth } from "./support/berth";

const ROOT_EMAIL = "root@berth.test";
const EMAIL = "Ada.Lovelace@example.com";
const PASSWORD = "correct horse battery";

describe("berth admin commands", () => {
  let berth: Berth;
  let env: Record<string, string>;
  let api: string;

  beforeAll(async () => {
    berth = await startBerth({ BERTH_ADMIN_EMAILS: ROOT_EMAIL });
    env = { BERTH_DATA_DIR: berth.dataDir, BERTH_APP_URL: berth.url, BERTH_ADMIN_EMAILS: ROOT_EMAIL };
    api = `http://127.0.0.1:${berth.port}`;
    const signUp = await fetch(`${api}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: berth.url },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD, name: "Ada Lovelace" }),
    });
    expect(signUp.status).toBe(200);
  });
  afterAll(async () => {
    if (berth.process.child.exitCode === null) await berth.stop();
    rmSync(berth.dataDir, { recursive: true, force: true });
  });

  it("sets a plan in the running server, which applies it at once, and lists users", async () => {
    expect(statSync(path.join(berth.dataDir, "admin.sock")).mode & 0o777).toBe(0o600);

    const setPlan = await berthCli(env, "admin", "set-plan", EMAIL, "pro");
    expect(setPlan).toMatchObject({ code: 0, stdout: "ada.lovelace@example.com is now on the Pro plan.\n" });

    const list = await berthCli(env, "admin", "list-users");
    expect(list.code).toBe(0);
    const [header, row, , footer] = list.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^EMAIL +NAME +PLAN +STORAGE +SITES +STATUS +ADMIN$/);
    expect(row!.split(/\s{2,}/)).toEqual(["ada.lovelace@example.com", "Ada Lovelace", "pro", "0 Bytes", "0", "active", "-"]);
    expect(footer).toBe("1 user.");

    // The server's own quota is the Pro one now: confirm the address, sign in and ask.
    const confirm = berth.outbox.lastLink("ada.lovelace@example.com", /Confirm your e-mail address/);
    expect((await fetch(confirm.replace(berth.url, api), { redirect: "manual" })).status).toBe(302);
    const signIn = await fetch(`${api}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: berth.url },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const stats = await (await fetch(`${api}/api/stats`, { headers: { cookie } })).json();
    expect(stats.storage_quota).toBe(PRO_PLAN.storageBytes);

    // A ban through the socket signs the user out in the running server.
    expect((await berthCli(env, "admin", "ban", EMAIL)).code).toBe(0);
    expect((await fetch(`${api}/api/stats`, { headers: { cookie } })).status).toBe(401);
    expect((await berthCli(env, "admin", "unban", EMAIL)).code).toBe(0);

    const unknown = await berthCli(env, "admin", "set-plan", "nobody@example.com", "pro");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No user has the e-mail address nobody@example.com");
  });

  it("opens the database itself once the server has stopped", async () => {
    berth.process.child.kill("SIGTERM");
    expect(await berth.process.exited).toBe(0);
    expect(existsSync(path.join(berth.dataDir, "admin.sock"))).toBe(false);
    expect(existsSync(path.join(berth.dataDir, "berth.lock"))).toBe(false);

    const setPlan = await berthCli(env, "admin", "set-plan", EMAIL, "free");
    expect(setPlan).toMatchObject({ code: 0, stdout: "ada.lovelace@example.com is now on the Free plan.\n" });
    const list = await berthCli(env, "admin", "list-users", "--search", "lovelace", "--json");
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ total: 1, users: [{ email: "ada.lovelace@example.com", plan: "free", bannedAt: null }] });
    expect(existsSync(path.join(berth.dataDir, "berth.lock"))).toBe(false);

    const badPlan = await berthCli(env, "admin", "set-plan", EMAIL, "gold");
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain('Unknown plan "gold": choose free or pro.');
  });
});
