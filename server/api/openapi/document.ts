// Builds the OpenAPI 3.1 document from the routes the app registered (collected by an onRoute
// hook in app.ts) and the doc each declares (routeDoc.ts). Who may call an operation is read from
// the route itself: its guard (routeGuards.ts) and its `config.token`, never from the doc.
//
// What it covers: every route under /api/, admin included (marked admin-only), except
// better-auth's /api/auth/*: sign-up, sign-in, password reset and two-factor are better-auth's own
// endpoints, whose requests its library defines rather than Berth's schemas, serve the dashboard's
// forms and refuse API tokens. Routes outside /api/ (the dashboard's pages, /internal/tls/ask for
// Caddy) are not part of the API.
import type { RouteOptions } from "fastify";
import { z } from "zod";
import { ErrorResponse } from "../../../common/api";
import { API_TOKEN_LIMIT } from "../../../common/limits";
import {
  AUTH_EXTENSION,
  TOKEN_PERMISSION_EXTENSION,
  type JsonSchema,
  type OpenApiAuthKind,
  type OpenApiDocument,
  type OpenApiMethod,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
} from "../../../common/openapi";
import { guardKinds, type GuardKind } from "../routeGuards";
import { API_TAGS, type ResponseDoc, type RouteDoc } from "./routeDoc";
import { SchemaRenderer } from "./schemas";

/** Whether a registered path belongs in the document (the rule above). */
export function isDocumentedPath(url: string): boolean {
  return url.startsWith("/api/") && !url.startsWith("/api/auth/");
}

/** Who may call a route, read from its guard and its token permission. */
export function authOf(route: Pick<RouteOptions, "preHandler" | "config">): { kind: OpenApiAuthKind; guards: Set<GuardKind> } {
  const guards = guardKinds(route.preHandler);
  const token = route.config?.token;
  if (guards.has("admin")) return { kind: "admin", guards };
  if (guards.has("identify")) return { kind: token ? "token" : "session", guards };
  return { kind: "public", guards };
}

/** "/api/sites/:siteId/files" → "/api/sites/{siteId}/files". */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");

const PARAMETER_TEXT: Record<string, string> = {
  siteId: "The site's id.",
  fileId: "The file's or folder's id.",
  deploymentId: "The deployment's id.",
  deployId: "The open deploy's id (from POST /api/sites/{siteId}/deploys).",
  sha256: "The file's SHA-256, 64 lowercase hexadecimal characters.",
  linkId: "The share link's id.",
  domainId: "The custom domain's id.",
  sessionId: "The session's id.",
  tokenId: "The API token's id.",
  webhookId: "The webhook's id.",
  userCode: "The code the terminal shows (BCDF-GHJK).",
  deliveryId: "The delivery's id (the event's id).",
  id: "The user's id.",
};

const DESCRIPTION = `Berth's JSON API: everything the dashboard does, for scripts, CI jobs and the command-line tool.

**Authentication.** Send an API token as \`Authorization: Bearer berth_…\` (create one in the dashboard under Integrations), or call from a signed-in browser session. Each operation says who may call it in \`${AUTH_EXTENSION}\`: \`public\` (anyone), \`session\` (a signed-in browser only; tokens get 403 \`session_only\`), \`token\` (a session, or a token whose permission is at least \`${TOKEN_PERMISSION_EXTENSION}\`: read < deploy < full) or \`admin\` (an operator's session; everyone else gets the 404 of an unknown route). A token for one site reaches that site only. A token request must not carry cookies. Each token may make ${API_TOKEN_LIMIT.max} requests a minute.

**Errors** are \`{ "error": { "code", "message", "detail"?, "fields"? } }\`; \`fields\` names each invalid field of a body or query.

**What is covered:** every route under /api/, the admin API included, except better-auth's /api/auth/* (sign-up, sign-in, password reset, two-factor): those serve the dashboard's forms and never take a token.`;

export interface BuiltDocument {
  document: OpenApiDocument;
  /** What is missing or contradictory, one line per route: the test fails on any. */
  problems: string[];
}

export function buildOpenApiDocument(routes: readonly RouteOptions[], options: { appUrl: string; version: string }): BuiltDocument {
  const schemas = new SchemaRenderer();
  const problems: string[] = [];
  const paths: OpenApiDocument["paths"] = {};
  const usedTags = new Set<string>();
  const operationIds = new Set<string>();

  for (const route of routes) {
    for (const method of [route.method].flat()) {
      if (method === "HEAD" || !isDocumentedPath(route.url)) continue;
      const key = `${method} ${route.url}`;
      const doc = route.config?.doc;
      if (!doc) {
        problems.push(
          `${key} has no API reference entry: add config.doc { summary, tags, response, and body/query/form if it takes them } (server/api/openapi/routeDoc.ts)`,
        );
        continue;
      }
      const verb = method.toLowerCase() as OpenApiMethod;
      try {
        const operation = operationOf(key, route, doc, verb, schemas, problems);
        if (operationIds.has(operation.operationId)) problems.push(`${key}: operationId ${operation.operationId} is taken by another route`);
        operationIds.add(operation.operationId);
        for (const tag of doc.tags) usedTags.add(tag);
        (paths[openApiPath(route.url)] ??= {})[verb] = operation;
      } catch (error) {
        problems.push(`${key}: its schemas cannot be rendered as JSON Schema (${(error as Error).message})`);
      }
    }
  }

  // Every error answer has this shape; it is a component even if no route names it.
  schemas.ref(ErrorResponse, "output");
  problems.push(...schemas.problems);
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: { title: "Berth API", version: options.version, description: DESCRIPTION },
    servers: [{ url: options.appUrl }],
    tags: Object.entries(API_TAGS)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        apiToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "berth_…",
          description: "An API token from Integrations. The operation's `x-berth-token-permission` is the least permission it needs.",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: options.appUrl.startsWith("https://") ? "__Host-berth.session_token" : "berth.session_token",
          description: "The dashboard's session cookie, set by signing in.",
        },
      },
    },
  };
  return { document, problems };
}

function operationOf(
  key: string,
  route: RouteOptions,
  doc: RouteDoc,
  verb: OpenApiMethod,
  schemas: SchemaRenderer,
  problems: string[],
): OpenApiOperation {
  const { kind, guards } = authOf(route);
  const token = route.config?.token;
  if (kind === "public" && !doc.public) problems.push(`${key} has no guard: give it one, or say doc.public: true if anyone may call it`);
  if (kind !== "public" && doc.public) problems.push(`${key} says doc.public but has the guard ${[...guards].join(", ")}`);
  if (token && kind !== "token") problems.push(`${key} names the token permission "${token}" but its guard is ${kind}: tokens can never reach it`);

  const operation: OpenApiOperation = {
    operationId: operationIdOf(verb, route.url),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [...doc.tags],
    responses: {},
    security: securityOf(kind, token),
    [AUTH_EXTENSION]: kind,
    ...(token ? { [TOKEN_PERMISSION_EXTENSION]: token } : {}),
  };
  const parameters = [...pathParameters(route.url), ...queryParameters(doc, schemas)];
  if (parameters.length > 0) operation.parameters = parameters;
  const requestBody = requestBodyOf(doc, schemas);
  if (requestBody) operation.requestBody = requestBody;

  for (const [status, response] of Object.entries(doc.response)) {
    if (response) operation.responses[status] = successResponse(status, response, schemas);
  }
  const errorRef = schemas.ref(ErrorResponse, "output");
  for (const [status, description] of Object.entries(errorsOf(doc, kind, guards))) {
    operation.responses[status] = { description, content: { "application/json": { schema: errorRef } } };
  }
  return operation;
}

function securityOf(kind: OpenApiAuthKind, token: string | undefined): Record<string, string[]>[] {
  if (kind === "public") return [];
  // OpenAPI 3.1 lets a non-OAuth scheme list the roles it needs: here, the token's permission.
  if (kind === "token" && token) return [{ apiToken: [token] }, { session: [] }];
  return [{ session: [] }];
}

/** "post /api/sites/:siteId/share-links" → "postSitesBySiteIdShareLinks". */
function operationIdOf(verb: string, url: string): string {
  const pascal = (text: string) =>
    text
      .split(/[-_.*]/)
      .filter(Boolean)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join("");
  const segments = url
    .split("/")
    .filter((segment) => segment !== "" && segment !== "api")
    .map((segment) => (segment.startsWith(":") ? `By${pascal(segment.slice(1))}` : pascal(segment)));
  return verb + segments.join("");
}

function pathParameters(url: string): OpenApiParameter[] {
  return [...url.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name: name!,
    in: "path" as const,
    required: true,
    ...(PARAMETER_TEXT[name!] ? { description: PARAMETER_TEXT[name!] } : {}),
    schema: { type: "string" },
  }));
}

function queryParameters(doc: RouteDoc, schemas: SchemaRenderer): OpenApiParameter[] {
  if (!doc.query) return [];
  const object = schemas.inline(doc.query, "input");
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...schema } = property;
    return { name, in: "query" as const, required: required.has(name), ...(description ? { description } : {}), schema };
  });
}

function requestBodyOf(doc: RouteDoc, schemas: SchemaRenderer): OpenApiOperation["requestBody"] {
  const content: Record<string, { schema: JsonSchema }> = {};
  if (doc.body) content["application/json"] = { schema: schemas.ref(doc.body, "input") };
  if (doc.form) content["multipart/form-data"] = { schema: formSchema(doc.form, schemas) };
  for (const [type, description] of Object.entries(doc.binary ?? {})) {
    content[type] = { schema: { type: "string", contentMediaType: type, description } };
  }
  return Object.keys(content).length > 0 ? { required: true, content } : undefined;
}

/** The form's text fields, then the one file part, which must come last. */
export function formSchema(form: NonNullable<RouteDoc["form"]>, schemas: SchemaRenderer): JsonSchema {
  const fields: JsonSchema = form.fields ? schemas.inline(form.fields, "input") : { type: "object", properties: {} };
  return {
    ...fields,
    properties: {
      ...fields.properties,
      file: { type: "string", contentMediaType: "application/octet-stream", description: `${form.file} Send it after the other fields.` },
    },
    required: [...(fields.required ?? []), "file"],
  };
}

const STATUS_TEXT: Record<string, string> = { "200": "OK.", "201": "Created.", "202": "Accepted.", "204": "No content.", "304": "Not modified." };

function successResponse(status: string, response: z.ZodType | ResponseDoc, schemas: SchemaRenderer): OpenApiResponse {
  const { description, schema, contentType }: ResponseDoc =
    response instanceof z.ZodType ? { description: STATUS_TEXT[status] ?? "OK.", schema: response } : response;
  const answer: OpenApiResponse = { description };
  if (schema) answer.content = { [contentType ?? "application/json"]: { schema: schemas.ref(schema, "output") } };
  else if (contentType) answer.content = { [contentType]: {} };
  return answer;
}

/** The errors a route's guard and validation imply, then the route's own. */
function errorsOf(doc: RouteDoc, kind: OpenApiAuthKind, guards: Set<GuardKind>): Record<string, string> {
  const errors: Record<string, string[]> = {};
  const add = (status: number, text: string) => (errors[String(status)] ??= []).push(text);
  if (doc.body || doc.query || doc.form?.fields) add(400, "The request is not valid (invalid_request); `error.fields` names each field's problem.");
  else if (doc.form) add(400, "Not multipart/form-data, or no part named file.");
  if (kind === "session" || kind === "token") add(401, "No session, or an unknown, revoked or expired API token.");
  if (kind === "session") add(403, "An API token was sent (session_only), or the account is suspended.");
  if (kind === "token")
    add(403, "The token's permission or site does not cover this (token_not_permitted, token_out_of_scope), or the account is suspended.");
  if (kind === "admin") add(404, "Not an admin: the same answer as an unknown route.");
  if (guards.has("site")) add(404, "No such site of yours (site_not_found).");
  if (guards.has("notDeleted")) add(409, "The site is deleted (site_deleted): restore it first.");
  if (kind === "token") add(429, "Too many requests with this API token; Retry-After says when to try again.");
  for (const [status, text] of Object.entries(doc.errors ?? {})) if (text) add(Number(status), text);
  const sorted = Object.keys(errors).sort();
  return Object.fromEntries(sorted.map((status) => [status, errors[status]!.join(" ")]));
}
