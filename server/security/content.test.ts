// Hostile content: a page disguised as an image, an SVG with a script, files of unknown types.
// Site hosts serve each with the type its name gives and nosniff, so a browser never runs an
// "image" as a page. The dashboard's origin never renders a user's file at all: downloads are
// attachments of opaque bytes with a CSP that allows nothing, pictures are images with the same
// CSP, and every other API answer is JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { createSiteWith, hostOf, postMultipart, zipOf } from "../test/sites";
import { png, pngOfSize, uploadAvatar } from "../test/avatars";
import { tenant, TENANT_ENV, type Tenant } from "../test/security/tenants";
import { collectRoutes, pathOf } from "../test/security/routeTable";
import type { SiteFileResponse, SiteResponse } from "../../common/sites";

const ROUTES = await collectRoutes();

const PAGE = "<!doctype html><html><body><script>fetch('/api/me').then(r => r.text()).then(alert)</script></body></html>";
const SVG = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script><rect width="1" height="1"/></svg>`;

/** Served name → the type it must be served with. */
const FILES: Array<[string, string | Buffer, string]> = [
  ["disguised.png", PAGE, "image/png"],
  ["images/disguised.jpg", PAGE, "image/jpeg"],
  ["drawing.svg", SVG, "image/svg+xml; charset=utf-8"],
  ["no-extension", PAGE, "application/octet-stream"],
  ["page.xhtml", PAGE, "application/octet-stream"],
  ["page.shtml", PAGE, "application/octet-stream"],
  ["data.bin", PAGE, "application/octet-stream"],
];

describe.each(DRIVERS)("hostile content (%s)", (driver) => {
  let server: TestServer;
  let owner: Tenant;
  let site: SiteResponse;
  let files: SiteFileResponse[];

  beforeAll(async () => {
    server = await getTestServer(driver, { env: TENANT_ENV });
    owner = await tenant(server);
    site = await createSiteWith(owner.client, {
      name: "site.zip",
      content: await zipOf([{ name: "index.html", data: "<h1>Home</h1>" }, ...FILES.map(([name, data]) => ({ name, data }))]),
      type: "application/zip",
    });
    // A page uploaded on its own under an image's name, claiming to be HTML.
    const single = await postMultipart(owner.client, `/api/sites/${site.id}/files`, {}, { name: "photo.png", content: PAGE, type: "text/html" });
    expect(single.statusCode, single.body).toBe(201);
    files = [];
    for (const parent of ["", "images"]) {
      files.push(...(await owner.client.get(`/api/sites/${site.id}/files?parent=${parent}`)).json<{ files: SiteFileResponse[] }>().files);
    }
  });
  afterAll(() => server.close());

  it.each([...FILES, ["photo.png", PAGE, "image/png"] as [string, string, string]])(
    "the site host serves %s as its name's type, with nosniff",
    async (name, data, type) => {
      for (const host of [hostOf(site.url), `${site.subdomain}--v2.localhost:8080`]) {
        const variants: Array<Record<string, string>> = [{}, { range: "bytes=0-9" }, { "accept-encoding": "br, gzip" }];
        for (const headers of variants) {
          const response = await server.edge.get(host, `/${name}`, { headers });
          expect([200, 206], `${host}/${name}`).toContain(response.status);
          expect(response.headers["content-type"], `${host}/${name}`).toBe(type);
          expect(response.headers["x-content-type-options"]).toBe("nosniff");
          if (response.status === 200 && !response.headers["content-encoding"]) expect(response.body.equals(Buffer.from(data))).toBe(true);
        }
        const head = await server.edge.get(host, `/${name}`, { method: "HEAD" });
        expect(head.headers["content-type"]).toBe(type);
        expect(head.headers["x-content-type-options"]).toBe("nosniff");
      }
    },
  );

  it("the dashboard hands every file out as an attachment of opaque bytes that cannot run", async () => {
    const served = files.filter((f) => !f.is_folder);
    expect(served.map((f) => f.filename).sort()).toEqual(expect.arrayContaining(["disguised.png", "drawing.svg", "photo.png", "no-extension"]));
    for (const file of served) {
      const response = await owner.client.get(`/api/sites/${site.id}/files/${file.id}/download`);
      expect(response.statusCode, file.file_path).toBe(200);
      expect(response.headers["content-type"]).toBe("application/octet-stream");
      expect(String(response.headers["content-disposition"])).toMatch(/^attachment; filename="/);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["cache-control"]).toBe("private, no-store");
      expect(response.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    }
  });

  it("names a downloaded file safely whatever its name holds", async () => {
    const names = ['quote"semi;colon.html', "é ü.html", "pct%0d%0a.html", "tab\u00a0nbsp.html"];
    const zip = await zipOf(names.map((name) => ({ name, data: "<p>x</p>" })));
    const upload = await postMultipart(
      owner.client,
      `/api/sites/${site.id}/files`,
      { extract: "true" },
      { name: "odd.zip", content: zip, type: "application/zip" },
    );
    expect(upload.statusCode, upload.body).toBe(201);
    const added = upload.json<{ files: SiteFileResponse[] }>().files.filter((f) => !f.is_folder);
    expect(added).toHaveLength(names.length);
    for (const file of added) {
      const disposition = String((await owner.client.get(`/api/sites/${site.id}/files/${file.id}/download`)).headers["content-disposition"]);
      // One header line, one quoted ASCII name: nothing that ends the quote or the line.
      expect(disposition).toMatch(/^attachment; filename="[\x20\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!'()*._~-]+$/);
    }
  });

  it("serves a picture only as the image its bytes are, and refuses a page posing as one", async () => {
    for (const [name, type] of [
      ["me.png", "image/png"],
      ["me.svg", "image/svg+xml"],
      ["me.html", "text/html"],
    ] as const) {
      const refused = await uploadAvatar(owner.client, { name, content: PAGE, type });
      expect(refused.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, name).toBeLessThan(500);
    }
    // PNG bytes followed by a page: it is stored and served as image/png, never as anything else.
    const polyglot = Buffer.concat([pngOfSize(100, 7), Buffer.from(PAGE)]);
    expect((await uploadAvatar(owner.client, png(polyglot, "me.html"))).statusCode).toBe(200);
    const image = await owner.client.get("/api/me/avatar");
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["x-content-type-options"]).toBe("nosniff");
    expect(image.headers["content-security-policy"]).toBe("default-src 'none'");
  });

  it("answers every GET route of the API with JSON, an image or an attachment, never a page of the user's", async () => {
    // The event stream never ends (and is text/event-stream, which no browser renders);
    // better-auth's GET routes are its own and are checked below.
    const routes = ROUTES.filter((r) => r.method === "GET" && r.url !== "/api/events" && !r.url.includes("*"));
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const url = pathOf(route, owner.ids);
      const response = await owner.client.get(url);
      const type = String(response.headers["content-type"] ?? "");
      const attachment = String(response.headers["content-disposition"] ?? "").startsWith("attachment");
      expect(
        type.startsWith("application/json") || type.startsWith("text/plain") || /^image\/(png|jpeg|webp)$/.test(type) || attachment,
        `${url}: ${type}`,
      ).toBe(true);
      expect(response.headers["x-content-type-options"], url).toBe("nosniff");
      expect(String(response.headers["content-security-policy"]), url).toMatch(/default-src '(self|none)'/);
      if (!type.startsWith("image/")) expect(response.body, url).not.toContain("<script>fetch('/api/me')");
    }
  });

  it("does not reflect a script through better-auth's error page, and the dashboard's CSP forbids inline scripts there", async () => {
    const response = await server
      .client()
      .get(`/api/auth/error?error=${encodeURIComponent('<script>alert(1)</script>"><img src=x onerror=alert(1)>')}`);
    expect(response.body).not.toContain("<script>alert(1)</script>");
    expect(response.body).not.toContain("onerror=alert(1)>");
    expect(String(response.headers["content-security-policy"])).toMatch(/script-src 'self'(;|$)/);
    expect(response.headers["x-frame-options"]).toBe("DENY");
  });
});
