import { describe, expect, it } from "vitest";
import type { OpenApiDocument, OpenApiOperation } from "../../../../common/openapi";
import { authOf, fieldRows, groupByTag, parameterRows, typeLabel } from "./apiDocument";

const operation = (overrides: Partial<OpenApiOperation>): OpenApiOperation => ({
  operationId: "op",
  summary: "Do it",
  tags: ["Sites"],
  responses: {},
  security: [],
  "x-berth-auth": "public",
  ...overrides,
});

const document: OpenApiDocument = {
  openapi: "3.1.0",
  info: { title: "Berth API", version: "0.1.0", description: "" },
  servers: [{ url: "http://localhost:8080" }],
  tags: [
    { name: "Sites", description: "Sites." },
    { name: "Empty", description: "Nothing here." },
    { name: "Files", description: "Files." },
  ],
  paths: {
    "/api/sites/{siteId}/files": { get: operation({ operationId: "files", tags: ["Files"] }) },
    "/api/sites": {
      post: operation({ operationId: "create", "x-berth-auth": "token", "x-berth-token-permission": "full" }),
      get: operation({ operationId: "list" }),
    },
  },
  components: {
    schemas: {
      Range: { type: "string", enum: ["24h", "7d"] },
      Site: {
        type: "object",
        properties: { id: { type: "string" }, owner: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
        required: ["id", "owner"],
      },
    },
    securitySchemes: {},
  },
};

describe("reading the API reference's document", () => {
  it("groups operations by tag in the document's order, methods in HTTP order, and leaves out empty tags", () => {
    const groups = groupByTag(document);
    expect(groups.map((group) => [group.id, group.endpoints.map((e) => e.operation.operationId)])).toEqual([
      ["sites", ["list", "create"]],
      ["files", ["files"]],
    ]);
  });

  it("says who may call an operation, a token with its permission", () => {
    expect(authOf(document.paths["/api/sites"]!.post!)).toEqual({ kind: "token", permission: "full" });
    expect(authOf(document.paths["/api/sites"]!.get!)).toEqual({ kind: "public" });
  });

  it("names types as a reader would: unions, nulls, arrays, named objects and named value lists", () => {
    expect(typeLabel(document, { anyOf: [{ type: "integer" }, { type: "null" }] })).toBe("integer | null");
    expect(typeLabel(document, { type: "array", items: { $ref: "#/components/schemas/Site" } })).toBe("Site[]");
    expect(typeLabel(document, { $ref: "#/components/schemas/Range" })).toBe('"24h" | "7d"');
    expect(typeLabel(document, { type: "object", additionalProperties: { type: "integer" } })).toBe("map of integer");
    expect(typeLabel(document, { type: "string", format: "date-time" })).toBe("string (date-time)");
  });

  it("flattens an object into rows, nested fields dotted after their parent, with limits and defaults", () => {
    const rows = fieldRows(document, {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 60, description: "What to call it." },
        site: { $ref: "#/components/schemas/Site" },
        sites: { type: "array", items: { $ref: "#/components/schemas/Site" } },
        days: { default: null, anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] },
      },
      required: ["name"],
    });
    expect(rows.map((row) => [row.name, row.type, row.required, row.notes.join(", ")])).toEqual([
      ["name", "string", true, "1–60 characters"],
      ["site", "Site", false, ""],
      ["site.id", "string", true, ""],
      ["site.owner", "object", true, ""],
      ["sites", "Site[]", false, ""],
      ["sites[].id", "string", true, ""],
      ["sites[].owner", "object", true, ""],
      ["days", "integer | null", false, "at least 1, default: null"],
    ]);
    expect(rows[0]!.description).toBe("What to call it.");
  });

  it("says where each parameter goes, with its default", () => {
    const rows = parameterRows(document, [
      { name: "siteId", in: "path", required: true, schema: { type: "string" } },
      { name: "range", in: "query", required: false, schema: { $ref: "#/components/schemas/Range", default: "7d" } },
    ]);
    expect(rows.map((row) => [row.name, row.type, row.notes.join(", ")])).toEqual([
      ["siteId", "string", "in the path"],
      ["range", '"24h" | "7d"', 'in the query, default: "7d"'],
    ]);
  });
});
