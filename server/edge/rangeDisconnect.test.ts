// A visitor who asks for several byte ranges of a large file, stops reading and goes away. The
// parts of a file too large for the cache are read from the store while the visitor keeps up;
// once it has gone, the read must end and its file close, or every such visitor would hold one
// file descriptor open for good.
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readlinkSync } from "node:fs";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CACHED_FILE_BYTES } from "./blobCache";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, zipOf } from "../test/sites";
import { getTestServer, type TestServer } from "../test/support";

/** How many of this process's descriptors are open on the blob. */
function openOn(sha256: string): number {
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).endsWith(sha256)) count += 1;
    } catch {
      // Closed between the listing and the look.
    }
  }
  return count;
}

describe.runIf(process.platform === "linux")("several ranges of a large file, and the visitor goes away", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer("pglite");
  });
  afterAll(() => server.close());

  it("closes the file once the visitor has gone", async () => {
    const { client } = await signedInClient(server);
    const big = randomBytes(8 * MAX_CACHED_FILE_BYTES);
    const site = await createSiteWith(client, { name: "site.zip", content: await zipOf([{ name: "big.bin", data: big }]), type: "application/zip" });
    const sha256 = createHash("sha256").update(big).digest("hex");
    // Read in full, the parts are the file's bytes.
    const whole = await server.edge.get(hostOf(site.url), "/big.bin", { headers: { range: "bytes=0-99,5000000-5000099" } });
    expect(whole.status).toBe(206);
    expect(whole.body.indexOf(big.subarray(0, 100))).toBeGreaterThan(0);
    expect(whole.body.indexOf(big.subarray(5_000_000, 5_000_100))).toBeGreaterThan(0);

    const { port } = await server.listen();

    const request = http.request({
      host: "127.0.0.1",
      port,
      path: "/big.bin",
      headers: { host: hostOf(site.url), range: `bytes=0-99,200-${big.length - 1}` },
    });
    request.on("error", () => undefined);
    const answered = new Promise<http.IncomingMessage>((resolve) => request.on("response", resolve));
    request.end();
    const response = await answered;
    expect(response.statusCode).toBe(206);
    // Not read: the socket's buffers fill and the server waits for the visitor with the file open.
    response.pause();
    for (let waited = 0; waited < 5000 && openOn(sha256) === 0; waited += 20) await sleep(20);
    expect(openOn(sha256)).toBeGreaterThan(0);

    request.destroy();
    for (let waited = 0; waited < 5000 && openOn(sha256) > 0; waited += 20) await sleep(20);
    expect(openOn(sha256)).toBe(0);
  });
});
