// The upload attack corpus, through the real API: each upload is refused with a clear message
// and leaves nothing behind, neither rows nor blobs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getTestServer, type TestClient, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile, postMultipart, zipOf, type UploadPart } from "../test/sites";
import { UNIX_MODE, CREATOR, zeros } from "../test/uploads/zipBuilder";
import { blobs, siteFiles, sites } from "../db/schema";
import { rowsOf } from "../db/rows";
import type { SiteResponse } from "../../common/sites";

const MB = 1024 * 1024;

async function state(server: TestServer): Promise<string> {
  const counts = await server.ctx.db.execute(
    sql`select (select count(*) from sites) as s, (select count(*) from site_files) as f, (select count(*) from deployments) as d, (select count(*) from blobs) as b, (select count(*) from deployment_files) as df`,
  );
  const stored: string[] = [];
  for await (const blob of server.ctx.blobs.list()) stored.push(blob.sha256);
  return JSON.stringify(rowsOf(counts)) + stored.sort().join(",");
}

const zipPart = (content: Buffer, name = "site.zip"): UploadPart => ({ name, content, type: "application/zip" });

describe("upload attacks", () => {
  let server: TestServer;
  let client: TestClient;
  let site: SiteResponse;

  beforeAll(async () => {
    server = await getTestServer("pglite");
    client = (await signedInClient(server)).client;
    site = await createSiteWith(client, htmlFile());
  });
  afterAll(() => server.close());

  const cases: [string, () => Promise<UploadPart>, string][] = [
    [
      "zip slip",
      async () =>
        zipPart(
          await zipOf([
            { name: "index.html", data: "ok" },
            { name: "../../evil.sh", data: "rm -rf /" },
          ]),
        ),
      "zip_unsafe_path",
    ],
    ["an absolute path", async () => zipPart(await zipOf([{ name: "/etc/cron.d/evil", data: "x" }])), "zip_unsafe_path"],
    ["a zip bomb", async () => zipPart(await zipOf([{ name: "bomb.html", data: zeros(200 * MB), method: "deflate" }])), "file_too_large"],
    [
      "headers that lie about sizes",
      async () => zipPart(await zipOf([{ name: "index.html", data: "x".repeat(10_000), method: "deflate", lie: { uncompressedSize: 10 } }])),
      "zip_invalid",
    ],
    [
      "a symlink entry",
      async () =>
        zipPart(
          await zipOf([
            { name: "index.html", data: "ok" },
            { name: "passwd", data: "/etc/passwd", creator: CREATOR.unix, mode: UNIX_MODE.symlink },
          ]),
        ),
      "zip_symlink",
    ],
    [
      "a device entry",
      async () => zipPart(await zipOf([{ name: "tty", data: "", creator: CREATOR.unix, mode: UNIX_MODE.charDevice }])),
      "zip_special_file",
    ],
    ["a NUL in a name", async () => zipPart(await zipOf([{ name: Buffer.from("a\u0000b.html"), data: "x" }])), "zip_unsafe_path"],
    ["a control character in a name", async () => zipPart(await zipOf([{ name: "line\nbreak.html", data: "x" }])), "zip_unsafe_path"],
    ["a file of 50 MB + 1 byte", async () => ({ name: "big.html", content: Buffer.alloc(50 * MB + 1, 97), type: "text/html" }), "file_too_large"],
    ["an unsupported type", async () => ({ name: "tool.exe", content: "MZ", type: "application/x-msdownload" }), "unsupported_type"],
    ["a control character in the file name", async () => ({ name: "bad\u0001name.html", content: "x", type: "text/html" }), "invalid_name"],
    ["a truncated zip", async () => zipPart((await zipOf([{ name: "index.html", data: "ok" }])).subarray(0, 40)), "zip_invalid"],
  ];

  it.each(cases)("refuses %s in the wizard, creating nothing", async (_name, build, code) => {
    const before = await state(server);
    const reserved = (await client.post("/api/subdomains/reserve", {})).json().subdomain;
    const response = await postMultipart(client, "/api/sites", { name: "Attack", subdomain: reserved }, await build());
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.json().error.code).toBe(code);
    expect(response.json().error.message.length).toBeGreaterThan(0);
    expect(await state(server)).toBe(before);
  });

  it.each(cases)("refuses %s in the Files tab, changing nothing", async (_name, build, code) => {
    const before = await state(server);
    const response = await postMultipart(client, `/api/sites/${site.id}/files`, { extract: "true" }, await build());
    expect(response.json().error.code).toBe(code);
    expect(await state(server)).toBe(before);
  });

  it("answers 'File too large' / 'Maximum file size is 50MB' for a file that is too large", async () => {
    const response = await postMultipart(
      client,
      `/api/sites/${site.id}/files`,
      {},
      { name: "big.pdf", content: Buffer.alloc(50 * MB + 1), type: "application/pdf" },
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: "file_too_large", message: "File too large", detail: "Maximum file size is 50MB" });
  });

  it("refuses an upload that would overflow the account's storage", async () => {
    // Fill the account to 1 MB short of its 500 MB quota with a file record of that size.
    const filler = "f".repeat(64);
    await server.ctx.db.insert(blobs).values({ sha256: filler, size: 499 * MB });
    await server.ctx.db.insert(siteFiles).values({
      site_id: site.id,
      filename: "filler.bin",
      file_path: "filler.bin",
      file_size: 499 * MB,
      sha256: filler,
      file_type: "application/octet-stream",
    });
    try {
      const before = await state(server);
      const response = await postMultipart(
        client,
        `/api/sites/${site.id}/files`,
        {},
        { name: "two.html", content: Buffer.alloc(2 * MB, 98), type: "text/html" },
      );
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe("quota_exceeded");
      expect(await state(server)).toBe(before);
      // A file that fits still goes in.
      const fits = await postMultipart(client, `/api/sites/${site.id}/files`, {}, { name: "small.html", content: "<p>small</p>", type: "text/html" });
      expect(fits.statusCode).toBe(201);
    } finally {
      await server.ctx.db.delete(siteFiles).where(eq(siteFiles.sha256, filler));
      await server.ctx.db.delete(blobs).where(eq(blobs.sha256, filler));
    }
  });

  it("leaves the site serving what it served before a refused upload", async () => {
    const live = await server.edge.get(new URL(site.url).host);
    await postMultipart(client, `/api/sites/${site.id}/files`, { extract: "true" }, zipPart(await zipOf([{ name: "../x", data: "x" }])));
    expect((await server.edge.get(new URL(site.url).host)).text).toBe(live.text);
    expect(await server.ctx.db.select().from(sites).where(eq(sites.id, site.id))).toHaveLength(1);
  });
});
