// Reading the API reference's OpenAPI document for the page: operations grouped by tag, who may
// call each, and a JSON Schema flattened into rows of fields (name, type, required, description).
import type { ApiTokenPermission } from "../../../../common/apiTokens";
import {
  AUTH_EXTENSION,
  OPENAPI_METHODS,
  TOKEN_PERMISSION_EXTENSION,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiMethod,
  type OpenApiOperation,
  type OpenApiParameter,
} from "../../../../common/openapi";

export interface Endpoint {
  method: OpenApiMethod;
  path: string;
  operation: OpenApiOperation;
}

export interface TagGroup {
  /** The anchor of its section on the page. */
  id: string;
  name: string;
  description: string;
  endpoints: Endpoint[];
}

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The document's tags in its order, each with its operations in path order. */
export function groupByTag(document: OpenApiDocument): TagGroup[] {
  const endpoints: Endpoint[] = Object.entries(document.paths).flatMap(([path, operations]) =>
    OPENAPI_METHODS.flatMap((method) => {
      const operation = operations[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
  return document.tags
    .map((tag) => ({
      id: slug(tag.name),
      name: tag.name,
      description: tag.description,
      endpoints: endpoints.filter((endpoint) => endpoint.operation.tags[0] === tag.name),
    }))
    .filter((group) => group.endpoints.length > 0);
}

export type AuthBadge = { kind: "public" | "session" | "admin" } | { kind: "token"; permission: ApiTokenPermission };

export function authOf(operation: OpenApiOperation): AuthBadge {
  const kind = operation[AUTH_EXTENSION];
  const permission = operation[TOKEN_PERMISSION_EXTENSION];
  return kind === "token" && permission ? { kind, permission } : { kind: kind === "token" ? "session" : kind };
}

/** A $ref's component, else the schema itself. */
export function resolve(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  const name = refName(schema);
  if (name === undefined) return schema;
  const { $ref: _ref, ...rest } = schema;
  return { ...resolve(document, document.components.schemas[name]), ...rest };
}

const refName = (schema: JsonSchema) =>
  schema.$ref?.startsWith("#/components/schemas/") ? schema.$ref.slice("#/components/schemas/".length) : undefined;

/** The branches of a nullable or union schema, null left out, and whether null was one of them. */
function branches(schema: JsonSchema): { options: JsonSchema[]; nullable: boolean } {
  const union = schema.anyOf ?? schema.oneOf;
  if (!union) return { options: [schema], nullable: false };
  const options = union.filter((option) => option.type !== "null");
  return { options, nullable: options.length < union.length };
}

/** A short type for a reader: "string", "integer | null", "SiteResponse[]", `"read" | "deploy"`. */
export function typeLabel(document: OpenApiDocument, schema: JsonSchema): string {
  const { options, nullable } = branches(schema);
  const label = options.map((option) => singleType(document, option)).join(" | ") || "any";
  return nullable ? `${label} | null` : label;
}

function singleType(document: OpenApiDocument, schema: JsonSchema): string {
  const name = refName(schema);
  if (name !== undefined) {
    // A named list of values reads better as its values; a named object by its name.
    const target = resolve(document, schema);
    return target.enum || target.const !== undefined ? singleType(document, target) : name;
  }
  if (schema.anyOf || schema.oneOf) return typeLabel(document, schema);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.type === "array") return `${schema.items ? wrapped(typeLabel(document, schema.items)) : "any"}[]`;
  if (schema.type === "object" && typeof schema.additionalProperties === "object") {
    return `map of ${typeLabel(document, schema.additionalProperties)}`;
  }
  if (schema.type === "string" && schema.contentMediaType) return "file";
  if (schema.type === "string" && schema.format) return `string (${schema.format})`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type ?? "any";
}

const wrapped = (label: string) => (label.includes(" ") ? `(${label})` : label);

/** Path and query parameters as rows, saying where each goes. */
export function parameterRows(document: OpenApiDocument, parameters: OpenApiParameter[]): FieldRow[] {
  return parameters.map((parameter) => ({
    name: parameter.name,
    type: typeLabel(document, parameter.schema),
    required: parameter.required,
    ...(parameter.description ? { description: parameter.description } : {}),
    notes: [parameter.in === "path" ? "in the path" : "in the query", ...notesOf(resolve(document, parameter.schema))],
  }));
}

export interface FieldRow {
  /** Dotted for nested fields: "site.id", "files[].path". */
  name: string;
  type: string;
  required: boolean;
  description?: string;
  /** Limits and defaults: "1–60 characters", "default: null". */
  notes: string[];
}

/** The fields of an object schema, nested objects' fields after their parent's row, `depth` levels deep. */
export function fieldRows(document: OpenApiDocument, schema: JsonSchema | undefined, depth = 2, prefix = ""): FieldRow[] {
  const object = resolve(document, schema);
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).flatMap(([key, property]) => {
    const name = `${prefix}${key}`;
    const resolved = resolve(document, property);
    const row: FieldRow = {
      name,
      type: typeLabel(document, property),
      required: required.has(key),
      ...((property.description ?? resolved.description) ? { description: property.description ?? resolved.description } : {}),
      notes: notesOf(resolved),
    };
    if (depth <= 1) return [row];
    const { options } = branches(resolved);
    const inner = options.length === 1 ? resolve(document, options[0]) : undefined;
    if (inner?.type === "object" && inner.properties) return [row, ...fieldRows(document, inner, depth - 1, `${name}.`)];
    const items = inner?.type === "array" ? resolve(document, inner.items) : undefined;
    if (items?.type === "object" && items.properties) return [row, ...fieldRows(document, items, depth - 1, `${name}[].`)];
    return [row];
  });
}

/** Limits and the default, as short notes: "1–60 characters", "default: null". */
export function notesOf(schema: JsonSchema): string[] {
  const { options } = branches(schema);
  const single = options.length === 1 ? options[0]! : schema;
  const notes: string[] = [];
  const range = (min: number | undefined, max: number | undefined, units: string, unit: string) => {
    if (min !== undefined && max !== undefined) notes.push(`${min}–${max}${units}`);
    else if (min !== undefined) notes.push(`at least ${min}${min === 1 ? unit : units}`);
    else if (max !== undefined) notes.push(`at most ${max}${max === 1 ? unit : units}`);
  };
  range(single.minLength, single.maxLength, " characters", " character");
  range(single.minimum, single.maximum, "", "");
  range(single.minItems, single.maxItems, " items", " item");
  if (schema.default !== undefined) notes.push(`default: ${JSON.stringify(schema.default)}`);
  return notes;
}
