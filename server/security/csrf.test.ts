// Cross-site request forgery: every state-changing route of the app (better-auth's included), sent
// with the signed-in owner's cookies from another origin, a site on the sites domain among them,
// as the three bodies a plain HTML form can send (urlencoded, text/plain, multipart), and with
// Sec-Fetch-Site saying cross-site or same-site and no Origin at all. Each is refused with 403
// and changes nothing, also when the path is spelt with percent-escapes the router decodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, TEST_APP_URL, type TestServer } from "../test/support";
import { multipartBody } from "../test/sites";
import { snapshot } from "../test/security/snapshot";
import { tenant, TENANT_ENV, type Ids, type Tenant } from "../test/security/tenants";
import { AUTH_WRITES, collectRoutes, hasBody, pathOf, shapeOf, type Method, type Shape } from "../test/security/routeTable";

const ROUTES = await collectRoutes();

interface Write {
  key: string;
  method: Method;
  path: (ids: Ids) => string;
  shape: (ids: Ids) => Shape;
}

/** Every route but GET, with better-auth's wildcard replaced by its state-changing endpoints. */
const WRITES: Write[] = ROUTES.filter((r) => r.method !== "GET").flatMap((route): Write[] => {
  if (route.url.endsWith("*")) {
    return Object.entries(AUTH_WRITES).map(([path, shape]) => ({ key: `${route.method} ${path}`, method: route.method, path: () => path, shape }));
  }
  return [{ key: route.key, method: route.method, path: (ids) => pathOf(route, ids), shape: (ids) => shapeOf(route, ids) }];
});

/** The body's fields as a form would send them. */
function fieldsOf(shape: Shape): Record<string, string> {
  const source = shape.form?.fields ?? shape.json ?? {};
  return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}

/** The bodies an HTML form on another site can post without a CORS preflight. */
function formBodies(shape: Shape): Array<{ name: string; contentType: string; payload: Buffer }> {
  const fields = fieldsOf(shape);
  const multipart = multipartBody(fields, shape.form?.file ?? { name: "index.html", content: "<p>forged</p>", type: "text/html" });
  return [
    { name: "urlencoded", contentType: "application/x-www-form-urlencoded", payload: Buffer.from(new URLSearchParams(fields).toString()) },
    // <form enctype="text/plain"> can produce a body that parses as JSON.
    { name: "text/plain", contentType: "text/plain", payload: Buffer.from(JSON.stringify(shape.json ?? fields)) },
    { name: "multipart", contentType: multipart.contentType, payload: multipart.body },
  ];
}

/** Spellings of one path that reach the same handler. */
const spellings = (path: string) => [path, path.replace(/^\/api\//, "/%61pi/"), path.replace(/^\/api\//, "/%61%70%69/")];

describe.each(DRIVERS)("cross-site writes (%s)", (driver) => {
  let server: TestServer;
  let owner: Tenant;
  let siteOrigin: string;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: TENANT_ENV });
    owner = await tenant(server);
    siteOrigin = `http://${owner.ids.subdomain}.localhost:8080`;
  });
  afterAll(() => server.close());

  const forgedHeaders = (): Array<[string, Record<string, string>]> => [
    ["a site on the sites domain", { origin: siteOrigin, "sec-fetch-site": "same-site" }],
    ["a site's Origin alone", { origin: siteOrigin }],
    ["another site", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
    ["an opaque origin", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site, no Origin", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site, no Origin", { "sec-fetch-site": "same-site" }],
  ];

  it.each(WRITES.map((w) => [w.key, w] as const))("%s from another origin is refused and changes nothing", async (_key, write) => {
    const before = await snapshot(server);
    const cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    for (const url of spellings(write.path(owner.ids))) {
      for (const body of hasBody(write.method) || write.method === "DELETE" ? formBodies(write.shape(owner.ids)) : [undefined]) {
        for (const [name, headers] of forgedHeaders()) {
          const response = await server.app.inject({
            method: write.method,
            url,
            headers: { ...headers, cookie, ...(body ? { "content-type": body.contentType } : {}) },
            ...(body ? { payload: body.payload } : {}),
          });
          const label = `${write.method} ${url}, ${body?.name ?? "no body"}, ${name}`;
          expect(response.statusCode, `${label} → ${response.body}`).toBe(403);
          expect(response.json().error.code, label).toBe("cross_site_request");
          expect(response.headers["set-cookie"], label).toBeUndefined();
        }
      }
    }
    expect(await snapshot(server)).toEqual(before);
    // The session the forged requests rode on is still there and still works.
    expect((await owner.client.get("/api/me")).statusCode).toBe(200);
  });

  it("lets the same kind of request through from the app's own origin, so the refusals above are the guard's", async () => {
    const response = await server.app.inject({
      method: "POST",
      url: "/%61pi/subdomains/reserve",
      headers: {
        origin: TEST_APP_URL,
        "sec-fetch-site": "same-origin",
        cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        "content-type": "text/plain",
      },
      payload: "{}",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().subdomain).toBe(owner.ids.reservedSubdomain);
  });

  it("gives pages on other origins no CORS grant to read the API", async () => {
    for (const method of ["GET", "OPTIONS"] as const) {
      const response = await server.app.inject({
        method,
        url: "/api/me",
        headers: {
          origin: siteOrigin,
          "access-control-request-method": "PATCH",
          cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        },
      });
      expect(response.headers["access-control-allow-origin"], method).toBeUndefined();
      expect(response.headers["access-control-allow-credentials"], method).toBeUndefined();
    }
  });
});
