import { mkdtempSync } from "node:fs";
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
});
