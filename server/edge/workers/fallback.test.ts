// Without the native addon's dupFd (no C compiler, not Linux) edge workers cannot take
// connections: the process says why once and serves sites from the main thread, as with
// BERTH_EDGE_WORKERS=1.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, zipOf } from "../../test/sites";

vi.mock("../native/kernelSend", async (importOriginal) => ({ ...(await importOriginal<typeof import("../native/kernelSend")>()), dupFd: undefined }));

describe("edge workers without the native addon", () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it("logs why and serves sites from the main thread", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    server = await getTestServer("pglite", { edgeWorkers: 2, log: pino({ level: "warn" }, sink) });
    expect(server.edgeWorkers).toBeUndefined();
    expect(lines.filter((line) => line.includes("BERTH_EDGE_WORKERS=2"))).toHaveLength(1);
    expect(lines.join("")).toContain("native addon");

    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, {
      name: "site.zip",
      content: await zipOf([{ name: "index.html", data: "<h1>Home</h1>" }]),
      type: "application/zip",
    });
    const answer = await server.edge.get(hostOf(site.url), "/");
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("<h1>Home</h1>");
  });
});
