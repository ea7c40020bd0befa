// The API reference's document (GET /api/openapi.json, OpenAPI 3.1): the parts the server writes
// and the dashboard's reference page reads. The server builds it from the routes it registers and
// the zod schemas they validate with (server/api/openapi/), so it cannot drift from the code.
import type { ApiTokenPermission } from "./apiTokens";

/** Where an operation's path lives on the dashboard's host. */
export const OPENAPI_PATH = "/api/openapi.json";

/**
 * Who may call an operation, in the `x-berth-auth` extension of each one:
 * - public: anyone, no credentials;
 * - session: a signed-in browser session only (API tokens get 403 session_only);
 * - token: a session, or an API token with at least the permission in `x-berth-token-permission`;
 * - admin: an operator's browser session; everyone else gets the 404 of an unknown route.
 */
export const OPENAPI_AUTH_KINDS = ["public", "session", "token", "admin"] as const;
export type OpenApiAuthKind = (typeof OPENAPI_AUTH_KINDS)[number];

export const AUTH_EXTENSION = "x-berth-auth";
export const TOKEN_PERMISSION_EXTENSION = "x-berth-token-permission";

/** A JSON Schema (draft 2020-12), as far as the reference page reads one. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  contentMediaType?: string;
  additionalProperties?: boolean | JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  [keyword: string]: unknown;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  security: Record<string, string[]>[];
  [AUTH_EXTENSION]: OpenApiAuthKind;
  [TOKEN_PERMISSION_EXTENSION]?: ApiTokenPermission;
}

export const OPENAPI_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type OpenApiMethod = (typeof OPENAPI_METHODS)[number];

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<OpenApiMethod, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}
