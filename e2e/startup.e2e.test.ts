import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, getWithHost, runBerth, startBerth, type Berth } from "./support/berth";

describe("starting Berth", () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth();
  });
  afterAll(() => berth.stop());

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
});
