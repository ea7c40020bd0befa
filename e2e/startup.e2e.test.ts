import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_POOL_SIZE } from "../server/threadPool";
import { berthCli, freePort, getWithHost, runBerth, startBerth, type Berth } from "./support/berth";

describe("starting Berth", () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth();
  });
  afterAll(() => berth.stop());

  it("runs from a bundle of Latin-1 characters only, which V8 holds at one byte a character", () => {
    // One character past Latin-1, even in a comment, doubles what every thread keeps of the source.
    for (const file of ["main.js", "edgeWorker.js"]) {
      const code = readFileSync(path.join(import.meta.dirname, "../dist/server", file), "utf8");
      expect(code.length).toBeGreaterThan(100_000);
      expect(code.match(/[^\0-\xff]/gu) ?? []).toEqual([]);
    }
  });

  it("gives the file system's calls a pool of THREAD_POOL_SIZE threads, not Node's four", async () => {
    // A request reads files asynchronously, which starts libuv's pool: all its threads at once.
    await fetch(`http://127.0.0.1:${berth.port}/api/health`);
    const tasks = path.join("/proc", String(berth.process.child.pid), "task");
    const names = readdirSync(tasks).map((task) => readFileSync(path.join(tasks, task, "comm"), "utf8").trim());
    expect(names.filter((name) => name === "libuv-worker")).toHaveLength(THREAD_POOL_SIZE);
  });

  it("answers health once migrations have run", async () => {
    const response = await fetch(`${berth.url.replace("localhost", "127.0.0.1")}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers site hosts from the edge with a branded 404", async () => {
    const response = await getWithHost(berth.port, `abcde.localhost:${berth.port}`);
    expect(response.status).toBe(404);
    expect(response.body).toContain("Site not found");
  });

  it("refuses a second process on the same data directory, saying why", async () => {
    const second = runBerth({ PORT: String(await freePort()), BERTH_DATA_DIR: berth.dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain("Another Berth process");
    expect(second.output()).toContain(berth.dataDir);
    // The first one is unharmed.
    expect((await fetch(`http://127.0.0.1:${berth.port}/api/health`)).status).toBe(200);
  });

  it("refuses bad settings with one list of every problem", async () => {
    const bad = runBerth({ PORT: "http", BERTH_APP_URL: "nope", BERTH_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "berth-bad-")) });
    expect(await bad.exited).toBe(1);
    const output = bad.output();
    expect(output).toContain("Berth cannot start; fix these settings:");
    expect(output).toContain("PORT");
    expect(output).toContain("BERTH_APP_URL");
  });

  it("refuses to start with the dashboard and the sites on one registrable domain, saying why, and starts with the override", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-shared-"));
    try {
      const shared = { BERTH_APP_URL: "https://berth.example.com", BERTH_SITES_DOMAIN: "sites.example.com" };
      const dataDir = path.join(scratch, "data");
      const refused = runBerth({ PORT: String(await freePort()), BERTH_DATA_DIR: dataDir, ...shared });
      expect(await refused.exited).toBe(1);
      const output = refused.output();
      expect(output).toContain("Berth cannot start; fix these settings:");
      expect(output).toContain("the dashboard (berth.example.com) and the sites (*.sites.example.com) share the registrable domain example.com");
      expect(output).toContain("Serve the sites from a registrable domain of their own");
      expect(output).toContain("BERTH_ALLOW_SHARED_DOMAIN=true for development only");
      // Refused before anything was written.
      expect(existsSync(dataDir)).toBe(false);

      const allowed = await startBerth({ ...shared, BERTH_ALLOW_SHARED_DOMAIN: "true" }, { dataDir });
      try {
        expect((await fetch(`http://127.0.0.1:${allowed.port}/api/health`)).status).toBe(200);
        expect(allowed.process.output()).not.toContain("share the registrable domain");
      } finally {
        await allowed.stop();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("refuses a plans file with problems, listing each at its place in the file, together with the other settings'", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-plans-bad-"));
    try {
      const plansFile = path.join(scratch, "plans.json");
      const plans = [
        { id: "free", name: "Free", price: "$0", limits: { storageBytes: "5 GB", maxFileBytes: 1024, deploymentsKept: 3 } },
        {
          id: "free",
          name: "Pro",
          price: "$9",
          limits: { storageBytes: 2048, maxFileBytes: 1024, deploymentsKept: 3 },
          features: { customDomain: true },
        },
      ];
      writeFileSync(plansFile, JSON.stringify({ plans, upgradeTo: "pro" }));
      const dataDir = path.join(scratch, "data");
      const bad = runBerth({ PORT: String(await freePort()), BERTH_DATA_DIR: dataDir, BERTH_PLANS_FILE: plansFile, BERTH_APP_URL: "nope" });
      expect(await bad.exited).toBe(1);
      const output = bad.output();
      expect(output).toContain("Berth cannot start; fix these settings:");
      expect(output).toContain("BERTH_APP_URL");
      for (const problem of [
        "BERTH_PLANS_FILE: plans[0].limits.storageBytes: must be a positive integer or null (unlimited)",
        "BERTH_PLANS_FILE: plans[1].features.customDomain: is not a field a plans file has",
        'BERTH_PLANS_FILE: plans[1].id: "free" is already the id of plans[0]',
        'BERTH_PLANS_FILE: plans: one plan must have "default": true',
        'BERTH_PLANS_FILE: upgradeTo: "pro" is not the id of a plan in the file',
      ]) {
        expect(output).toContain(problem);
      }
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 240_000);

  it("refuses to start while an account is on a plan the server's plans leave out, naming it, until the operator moves it", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-plans-gone-"));
    const dataDir = path.join(scratch, "data");
    try {
      const plansFile = path.join(scratch, "plans.json");
      const limits = { storageBytes: 100 * 1024 * 1024, maxFileBytes: 1024 * 1024, deploymentsKept: 3 };
      const plans = [
        { id: "free", name: "Free", price: "$0", default: true, limits },
        { id: "gold", name: "Gold", price: "$9", limits },
      ];
      writeFileSync(plansFile, JSON.stringify({ plans, upgradeTo: "gold" }));
      const withGold = await startBerth({ BERTH_PLANS_FILE: plansFile }, { dataDir });
      const email = "goldie@example.com";
      const signedUp = await fetch(`${withGold.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: withGold.url },
        body: JSON.stringify({ email, password: "a long enough password", name: "Goldie" }),
      });
      expect(signedUp.status).toBe(200);
      const cliEnv = { BERTH_DATA_DIR: dataDir, BERTH_APP_URL: withGold.url, BERTH_PLANS_FILE: plansFile };
      expect((await berthCli(cliEnv, "admin", "set-plan", email, "gold")).code).toBe(0);
      await withGold.stop({ keepDataDir: true });

      // The built-in plans have no "gold": Berth names the account instead of shrinking it to Free.
      const refused = runBerth({ PORT: String(await freePort()), BERTH_DATA_DIR: dataDir });
      expect(await refused.exited).toBe(1);
      const output = refused.output();
      expect(output).toContain("Berth cannot start: accounts are on plans this server does not offer (its plans: free, pro");
      expect(output).toContain(`"gold": 1 account (${email})`);
      expect(output).toContain("npm run berth -- admin set-plan <email> <plan>");

      // The CLI runs while Berth is stopped; once the account is moved, Berth starts.
      const { BERTH_PLANS_FILE: _file, ...builtIn } = cliEnv;
      expect((await berthCli(builtIn, "admin", "set-plan", email, "pro")).code).toBe(0);
      const started = await startBerth({}, { dataDir });
      await started.stop();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);

  it("stops cleanly on a SIGTERM that comes while it starts, and starts again on the same data directory", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-early-stop-"));
    try {
      const env = { PORT: String(await freePort()), BERTH_DATA_DIR: dataDir, BERTH_BACKUP_DAILY: "false" };
      const starting = runBerth(env);
      // The first line is written before the database opens, which takes far longer than the signal.
      for (const deadline = Date.now() + 30_000; !starting.output().includes("Berth starting");) {
        if (Date.now() > deadline) throw new Error(`no start line:\n${starting.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      starting.child.kill("SIGTERM");
      expect(await starting.exited, starting.output()).toBe(0);
      expect(starting.output()).toContain("SIGTERM received while starting");
      // Not killed halfway: the lock is released and the database opens again.
      const again = await startBerth({}, { dataDir });
      await again.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
