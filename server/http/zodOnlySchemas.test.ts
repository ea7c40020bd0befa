import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { JSON_SCHEMA_REFUSED, ZOD_ONLY_SCHEMAS } from "./zodOnlySchemas";

describe("Fastify without its JSON-schema compilers", () => {
  it("serves routes that give no schema", async () => {
    const app = Fastify({ schemaController: ZOD_ONLY_SCHEMAS });
    app.post("/echo", async (request) => ({ got: request.body }));
    const response = await app.inject({ method: "POST", url: "/echo", payload: { a: 1 } });
    expect(response.json()).toEqual({ got: { a: 1 } });
    await app.close();
  });

  it.each([
    ["a body", { body: { type: "object" } }],
    ["a query", { querystring: { type: "object" } }],
    ["a response", { response: { 200: { type: "object" } } }],
  ])("refuses a route that gives %s schema, at start-up", async (_what, schema) => {
    const app = Fastify({ schemaController: ZOD_ONLY_SCHEMAS });
    app.post("/typed", { schema }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(JSON_SCHEMA_REFUSED);
    await app.close().catch(() => undefined);
  });
});
