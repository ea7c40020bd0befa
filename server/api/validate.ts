// Request validation with the zod schemas a route declares in its doc (openapi/routeDoc.ts), so the
// schema the API reference shows is the one that checks the request. A schema the doc does not
// declare is a mistake in the route, caught by the first test that calls it: it throws (a 500).
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError } from "../errors";
import type { RouteDoc } from "./openapi/routeDoc";

/**
 * The JSON body, parsed with the schema the route's doc declares as `body`. A route that reads its
 * body as a stream passes what it read as `body`.
 */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S, body: unknown = request.body): z.infer<S> {
  requireDeclared(request, schema, "body", (doc) => doc.body);
  return parseWith(schema, body);
}

/** The query string, parsed with the schema the route's doc declares as `query`. */
export function parseQuery<S extends z.ZodType>(request: FastifyRequest, schema: S): z.infer<S> {
  requireDeclared(request, schema, "query", (doc) => doc.query);
  return parseWith(schema, request.query);
}

/** A multipart form's text fields, parsed with the schema the route's doc declares as `form.fields`. */
export function parseFormFields<S extends z.ZodType>(request: FastifyRequest, schema: S, fields: Record<string, string>): z.infer<S> {
  requireDeclared(request, schema, "form.fields", (doc) => doc.form?.fields);
  return parseWith(schema, fields);
}

function requireDeclared(request: FastifyRequest, schema: z.ZodType, where: string, declared: (doc: RouteDoc) => z.ZodType | undefined) {
  const doc = request.routeOptions.config.doc;
  if (doc && declared(doc) === schema) return;
  throw new Error(
    `${request.method} ${request.routeOptions.url ?? request.url} validates with a schema its doc does not declare: ` +
      `put that same schema object in config.doc.${where}`,
  );
}

/** Parses `value` with `schema`; a failure answers 400 with one message per field. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "body";
    fields[key] ??= issue.message;
  }
  const first = Object.values(fields)[0] ?? "Invalid request";
  throw new AppError("invalid_request", 400, first, fields);
}
