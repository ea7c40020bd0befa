// Limits on the request itself, on both HTTP layers (the edge's own, and node:http, which a Range
// header hands the connection to): a target over 8 KB on a site host gets 414, a Host no DNS name
// can be gets 400, and nothing is remembered for either.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, htmlFile } from "../test/sites";
import type { SiteResponse } from "../../common/sites";
import { MAX_TARGET_LENGTH } from "./requestLimits";

/** The edge's own layer, and node:http (a Range is handed over). */
const LAYERS: Array<[string, Record<string, string>]> = [
  ["the edge's own layer", {}],
  ["node:http", { range: "bytes=0-3" }],
];

/** A name of exactly `length` characters under .localhost, in labels of 63. */
function nameOf(length: number): string {
  const labels: string[] = [];
  let left = length - ".localhost".length;
  while (left > 0) {
    const size = Math.min(63, left - (labels.length > 0 ? 1 : 0));
    labels.push("a".repeat(size));
    left -= size + (labels.length > 1 ? 1 : 0);
  }
  return `${labels.join(".")}.localhost`;
}

describe("limits on the request itself", () => {
  let server: TestServer;
  let site: SiteResponse;
  let host: string;

  beforeAll(async () => {
    server = await getTestServer("pglite");
    const { client } = await signedInClient(server);
    site = await createSiteWith(client, htmlFile("<h1>Home</h1>"));
    host = hostOf(site.url);
  });
  afterAll(() => server.close());

  it.each(LAYERS)("answers 414 on %s to a target longer than 8 KB, and keeps no route for it", async (_, headers) => {
    const routes = () => server.edgeResolver.peek(site.subdomain)?.routes.size ?? 0;
    expect((await server.edge.get(host, "/", { headers })).status).toBe(headers.range ? 206 : 200);
    const before = routes();
    const longPath = `/${"x".repeat(MAX_TARGET_LENGTH)}`;
    const longQuery = `/?${"q".repeat(MAX_TARGET_LENGTH)}`;
    for (const target of [longPath, longQuery]) {
      const refused = await server.edge.get(host, target, { headers });
      expect(refused.status).toBe(414);
      expect(refused.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(refused.text).toBe("URI Too Long: this address is longer than 8 KB.\n");
      const head = await server.edge.get(host, target, { method: "HEAD", headers });
      expect(head.status).toBe(414);
      expect(head.body.length).toBe(0);
    }
    expect(routes()).toBe(before);
    // 8 KB exactly is served as any other path.
    expect((await server.edge.get(host, `/${"x".repeat(MAX_TARGET_LENGTH - 1)}`, { headers })).status).toBe(404);
  });

  it.each(LAYERS)("answers 400 on %s to a Host that no DNS name can be, and remembers it nowhere", async (_, headers) => {
    const usage = () => {
      const all = server.edgeMemory.usage();
      return [all.hostValues.used, all.unknownLabels.used, all.sites.used, all.servedHosts.used];
    };
    const before = usage();
    for (const impossible of [nameOf(254), `${"a".repeat(64)}.localhost`, `${nameOf(253)}.:1234567`]) {
      const refused = await server.edge.get(impossible, "/", { headers });
      expect(refused.status, impossible).toBe(400);
      expect(refused.text).toBe("Bad Request: no host name is that long.\n");
    }
    expect(usage()).toEqual(before);
    // As long as DNS allows: looked up like any other name (and not found).
    expect(nameOf(253)).toHaveLength(253);
    expect((await server.edge.get(`${nameOf(253)}.:8080`, "/", { headers })).status).toBe(404);
    expect((await server.edge.get(`${site.subdomain}.localhost:65535`, "/", { headers })).status).toBe(headers.range ? 206 : 200);
  });

  it("leaves other hosts' targets to what serves them (Fastify for the dashboard)", async () => {
    // The test edge's fallback answers 421: the request got past the edge's limits.
    expect((await server.edge.get("localhost:8080", `/${"x".repeat(MAX_TARGET_LENGTH + 100)}`)).status).toBe(421);
  });
});
