// The API reference against the app it describes: a real build (its own onRoute list, not the one
// the document is built from), real requests for who may call each route, and the zod schemas
// the routes declare. A route added without doc metadata, or whose doc contradicts the route,
// fails here with a line saying which route lacks what.
//
// One database (PGlite) is enough: the document and the guards do not depend on the driver.
import { randomBytes } from "node:crypto";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_TOKEN_PREFIX } from "../../../common/apiTokens";
import {
  AUTH_EXTENSION,
  OPENAPI_PATH,
  TOKEN_PERMISSION_EXTENSION,
  type JsonSchema,
  type OpenApiAuthKind,
  type OpenApiDocument,
  type OpenApiMethod,
  type OpenApiOperation,
} from "../../../common/openapi";
import { berthVersion } from "../../backup/manifest";
import { pathOf, PARAM_IDS, type Method, type Route } from "../../test/security/routeTable";
import { tenant, TENANT_ENV, type Tenant } from "../../test/security/tenants";
import { getTestServer, TEST_APP_URL, type TestServer } from "../../test/support";
import { buildOpenApiDocument, isDocumentedPath, openApiPath } from "./document";

const ADMIN_EMAIL = "operator.admin@openapi.test";

interface Registered {
  method: Method;
  url: string;
  key: string;
  options: RouteOptions;
}

const registered: Registered[] = [];
let server: TestServer;
let document: OpenApiDocument;

beforeAll(async () => {
  const onRoute = (options: RouteOptions) => {
    for (const method of [options.method].flat()) {
      if (method !== "HEAD") registered.push({ method: method as Method, url: options.url, key: `${method} ${options.url}`, options });
    }
  };
  server = await getTestServer("pglite", { env: { ...TENANT_ENV, BERTH_ADMIN_EMAILS: ADMIN_EMAIL }, app: { onRoute } });
  const response = await server.client().get(OPENAPI_PATH);
  expect(response.statusCode).toBe(200);
  document = response.json<OpenApiDocument>();
});
afterAll(() => server.close());

const documented = () => registered.filter((route) => isDocumentedPath(route.url));
/** The documented routes that have their doc; the first test names those that do not. */
const withDoc = () => documented().filter((route) => route.options.config?.doc !== undefined && operationOf(route) !== undefined);
const operationOf = (route: Registered): OpenApiOperation | undefined =>
  document.paths[openApiPath(route.url)]?.[route.method.toLowerCase() as OpenApiMethod];
const asRoute = (route: Registered): Route => ({
  method: route.method,
  url: route.url,
  key: route.key,
  params: [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!),
});

/** The $refs of `node` replaced by the components they name, recursively. */
function dereference(node: unknown, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => dereference(item, seen));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as { $ref?: string };
  if (typeof $ref === "string") {
    if (seen.includes($ref)) throw new Error(`a cycle through ${$ref}`);
    const target = resolveRef($ref);
    if (target === undefined) throw new Error(`${$ref} resolves to nothing`);
    return dereference({ ...(target as object), ...rest }, [...seen, $ref]);
  }
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, dereference(value, seen)]));
}

function resolveRef(ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  return node;
}

/**
 * What z.toJSONSchema makes of the schema on its own, as a client sends it or as the server
 * answers it (whose objects the document leaves open, so that answers may gain fields).
 */
const jsonSchemaOf = (schema: z.core.$ZodType, io: "input" | "output") => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io });
  return io === "output" ? withoutClosedObjects(json) : json;
};

function withoutClosedObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutClosedObjects);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "additionalProperties" && value === false))
      .map(([key, value]) => [key, withoutClosedObjects(value)]),
  );
}

describe("the API reference", () => {
  it("has an entry for every route under /api, but better-auth's, and nothing else", () => {
    const built = buildOpenApiDocument(
      registered.map((route) => route.options),
      { appUrl: TEST_APP_URL, version: berthVersion() },
    );
    expect(built.problems, `Routes whose API reference is missing or wrong:\n${built.problems.join("\n")}`).toEqual([]);

    const missing = documented()
      .filter((route) => operationOf(route) === undefined)
      .map((route) => `${route.key} is not in ${OPENAPI_PATH}: add config.doc to its registration (server/api/openapi/routeDoc.ts)`);
    expect(missing, missing.join("\n")).toEqual([]);

    const keys = new Set(documented().map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`));
    const extra = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => !keys.has(`${method} ${path}`))
        .map((method) => `${method} ${path}`),
    );
    expect(extra).toEqual([]);

    // The stated exclusions exist and stay out.
    expect(registered.some((route) => route.url === "/api/auth/*")).toBe(true);
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/api/auth/") || !path.startsWith("/api/"))).toEqual([]);
    expect(document.info.description).toContain("except better-auth's /api/auth/*");
    // Enough of the app is there that a broken collection would show.
    expect(documented().length).toBeGreaterThanOrEqual(50);
  });

  it("is a well-formed OpenAPI 3.1 document: info, servers, unique operationIds, every $ref resolves", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "Berth API", version: berthVersion() });
    expect(document.servers).toEqual([{ url: TEST_APP_URL }]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(["apiToken", "session"]);

    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const operation of operations) {
      expect(operation.summary, operation.operationId).toMatch(/^[A-Z]/);
      expect(
        operation.tags.every((tag) => tags.has(tag)),
        operation.operationId,
      ).toBe(true);
      expect(Object.keys(operation.responses).length, operation.operationId).toBeGreaterThan(0);
    }

    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref" && typeof value === "string") refs.push(value);
          else walk(value);
        }
      }
    };
    walk(document);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((ref) => resolveRef(ref) === undefined)).toEqual([]);
    // Every path parameter of a path is declared by each of its operations.
    for (const [path, methods] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(methods)) {
        const declared = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
        expect(declared, `${operation.operationId} (${path})`).toEqual(names);
      }
    }
  });

  it("says who may call each operation as the route really answers a guest and an API token", async () => {
    const ids = Object.fromEntries(Object.keys(PARAM_IDS).map((name) => [name, "00000000-0000-4000-8000-000000000000"]));
    const wrong: string[] = [];
    for (const route of withDoc()) {
      const url = route.url.replace(/:(\w+)/g, (_match, name: string) => ids[name] ?? "x");
      // Each call from its own address, so no per-address limit counts them together.
      const guest = await server.client().request(route.method, url);
      const token = await server.client().request(route.method, url, {
        headers: { authorization: `Bearer ${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}` },
      });
      const codeOf = (response: typeof guest) =>
        String(response.headers["content-type"] ?? "").includes("json") ? response.json<{ error?: { code?: string } }>().error?.code : undefined;
      let real: OpenApiAuthKind;
      if (guest.statusCode === 401) real = token.statusCode === 403 && codeOf(token) === "session_only" ? "session" : "token";
      else if (guest.statusCode === 404 && codeOf(guest) === "not_found" && token.statusCode === 404) real = "admin";
      else real = "public";
      if (real === "token") expect(token.statusCode, route.key).toBe(401);

      const operation = operationOf(route)!;
      const permission = route.options.config?.token;
      const security = real === "public" ? [] : real === "token" ? [{ apiToken: [permission] }, { session: [] }] : [{ session: [] }];
      const says = { auth: operation[AUTH_EXTENSION], permission: operation[TOKEN_PERMISSION_EXTENSION], security: operation.security };
      const is = { auth: real, permission: real === "token" ? permission : undefined, security };
      if (JSON.stringify(says) !== JSON.stringify(is))
        wrong.push(`${route.key}: the reference says ${JSON.stringify(says)}, the route is ${JSON.stringify(is)}`);
    }
    expect(wrong, wrong.join("\n")).toEqual([]);
    // Each kind is there, so a guard the document misreads would show.
    const kinds = new Set(withDoc().map((route) => operationOf(route)![AUTH_EXTENSION]));
    expect([...kinds].sort()).toEqual(["admin", "public", "session", "token"]);
  }, 60_000); // about 120 requests through the real guards

  it("shows as request bodies, query parameters and answers the JSON Schemas of the routes' own zod schemas", () => {
    let bodies = 0;
    for (const route of withDoc()) {
      const doc = route.options.config!.doc!;
      const operation = operationOf(route)!;
      const content = operation.requestBody?.content ?? {};
      if (doc.body) {
        bodies += 1;
        expect(dereference(content["application/json"]?.schema), route.key).toEqual(jsonSchemaOf(doc.body, "input"));
      } else {
        expect(content["application/json"], route.key).toBeUndefined();
      }
      if (doc.form) {
        const form = dereference(content["multipart/form-data"]?.schema) as JsonSchema;
        const { file, ...fields } = form.properties ?? {};
        expect(file, route.key).toMatchObject({ type: "string" });
        expect(form.required, route.key).toContain("file");
        if (doc.form.fields) {
          const expected = jsonSchemaOf(doc.form.fields, "input") as JsonSchema;
          expect(fields, route.key).toEqual(expected.properties);
          expect(
            form.required!.filter((name) => name !== "file"),
            route.key,
          ).toEqual(expected.required ?? []);
        }
      }
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === "query");
      if (doc.query) {
        const expected = jsonSchemaOf(doc.query, "input") as JsonSchema;
        const fromDocument = Object.fromEntries(
          query.map((p) => [p.name, dereference({ ...p.schema, ...(p.description ? { description: p.description } : {}) })]),
        );
        expect(fromDocument, route.key).toEqual(expected.properties);
        expect(
          query.filter((p) => p.required).map((p) => p.name),
          route.key,
        ).toEqual(expected.required ?? []);
      } else expect(query, route.key).toEqual([]);

      for (const [status, response] of Object.entries(doc.response)) {
        const schema = response instanceof z.ZodType ? response : response?.schema;
        if (!schema) continue;
        const media = Object.values(operation.responses[status]?.content ?? {})[0];
        expect(dereference(media?.schema), `${route.key} ${status}`).toEqual(jsonSchemaOf(schema, "output"));
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(13);
  });

  describe("the schemas the routes validate with", () => {
    let owner: Tenant;
    beforeAll(async () => {
      owner = await tenant(server, { email: ADMIN_EMAIL });
    }, 60_000); // a signed-in Pro user with a site, a link, a domain and a token, made through the API

    it("are the documented ones: a body the schema refuses gets the schema's own messages", async () => {
      // Every field of the documented schema gets a value of no type a field can take, so the
      // route answers 400 naming exactly the fields (and messages) its own schema names.
      const probes: string[] = [];
      const wrong: string[] = [];
      for (const route of withDoc()) {
        const schema = route.options.config!.doc!.body;
        if (!schema) continue;
        const properties = (jsonSchemaOf(schema, "input") as JsonSchema).properties ?? {};
        const body = Object.fromEntries(Object.keys(properties).map((name) => [name, { wrong: [true] }]));
        const expected = schema.safeParse(body);
        if (expected.success) continue;
        const fields: Record<string, string> = {};
        for (const issue of expected.error.issues) fields[issue.path.join(".") || "body"] ??= issue.message;
        const response = await owner.client.request(route.method, pathOf(asRoute(route), owner.ids), { json: body });
        probes.push(route.key);
        const answer = response.json<{ error?: { code: string; fields?: Record<string, string> } }>().error;
        if (response.statusCode !== 400 || JSON.stringify(answer?.fields) !== JSON.stringify(fields)) {
          wrong.push(`${route.key}: ${response.statusCode} ${JSON.stringify(answer)}; its documented schema says ${JSON.stringify(fields)}`);
        }
      }
      expect(wrong, wrong.join("\n")).toEqual([]);
      expect(probes.length).toBeGreaterThanOrEqual(12);
    });
  });
});
