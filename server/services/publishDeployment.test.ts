// Publishing under load: while a client requests every file of a site in a loop, 20 versions are
// published. Every response must be a complete file of one version: no 404, no 5xx, no mix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, postMultipart, zipOf } from "../test/sites";

const FILES = ["index.html", "app.js", "css/site.css", "data/big.txt"];

function versionOf(path: string, version: number): string {
  // Each file repeats its version marker; data/big.txt is large enough to span many chunks.
  const marker = `[v${version}:${path}]`;
  return marker.repeat(path === "data/big.txt" ? 20_000 : 20);
}

describe.each(DRIVERS)("atomic publishing (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  // 20 zips published while a reader loops: about 15 s alone, and twice that on a busy machine.
  it("serves one complete version per response while 20 versions are published", { timeout: 90_000 }, async () => {
    const { client } = await signedInClient(server);
    const zipFor = (version: number) => zipOf(FILES.map((path) => ({ name: path, data: versionOf(path, version), method: "deflate" as const })));
    const site = await createSiteWith(client, { name: "v1.zip", content: await zipFor(1), type: "application/zip" });
    const host = hostOf(site.url);

    let publishing = true;
    const seen: number[] = [];
    const problems: string[] = [];
    const reader = (async () => {
      while (publishing) {
        for (const path of FILES) {
          const response = await server.edge.get(host, `/${path}`);
          const match = /^\[v(\d+):/.exec(response.text);
          if (response.status !== 200 || !match) {
            problems.push(`${path}: ${response.status} ${response.text.slice(0, 40)}`);
            continue;
          }
          const version = Number(match[1]);
          if (response.text !== versionOf(path, version)) problems.push(`${path}: mixed or partial body of v${version}`);
          seen.push(version);
        }
      }
    })();

    for (let version = 2; version <= 21; version++) {
      const response = await postMultipart(
        client,
        `/api/sites/${site.id}/files`,
        { extract: "true" },
        { name: `v${version}.zip`, content: await zipFor(version), type: "application/zip" },
      );
      expect(response.statusCode).toBe(201);
    }
    publishing = false;
    await reader;

    expect(problems).toEqual([]);
    expect(seen.length).toBeGreaterThan(40);
    expect(new Set(seen).size).toBeGreaterThan(2);
    expect((await server.edge.get(host, "/")).text).toBe(versionOf("index.html", 21));
  });
});
