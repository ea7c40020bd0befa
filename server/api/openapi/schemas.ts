// zod schemas → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with z.toJSONSchema.
// A schema exported from common/ becomes a named component (`#/components/schemas/SiteResponse`),
// named as the code names it, and every other use of it is a $ref; anything else is inlined.
// Request schemas are rendered as what a client sends (io "input": defaults make fields optional),
// responses as what the server answers (io "output", objects left open to fields added later).
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import * as account from "../../../common/account";
import * as admin from "../../../common/admin";
import * as analytics from "../../../common/analytics";
import * as api from "../../../common/api";
import * as apiTokens from "../../../common/apiTokens";
import * as contact from "../../../common/contact";
import * as deploys from "../../../common/deploys";
import * as domains from "../../../common/domains";
import * as shareLinks from "../../../common/shareLinks";
import * as sites from "../../../common/sites";
import type { JsonSchema } from "../../../common/openapi";

/** The modules whose exported schemas are named components. A schema from elsewhere is inlined. */
const NAMED_MODULES: Record<string, unknown>[] = [api, sites, deploys, analytics, shareLinks, domains, account, apiTokens, admin, contact];

export type SchemaRole = "input" | "output";

/** "analyticsResponseSchema" → "AnalyticsResponse"; "SiteResponse" stays. */
const componentName = (exportName: string) => {
  const base = exportName.replace(/Schema$/, "");
  return base.charAt(0).toUpperCase() + base.slice(1);
};

function schemaNames(): Map<z.core.$ZodType, string> {
  const names = new Map<z.core.$ZodType, string>();
  for (const module of NAMED_MODULES) {
    for (const [exportName, value] of Object.entries(module)) {
      if (value instanceof z.ZodType && !names.has(value)) names.set(value, componentName(exportName));
    }
  }
  return names;
}

/** Renders a schema on its own, the way the document's checks and the reference compare against. */
export function toJsonSchema(schema: z.core.$ZodType, role: SchemaRole, override?: Parameters<typeof z.toJSONSchema>[1]): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io: role, ...override }) as JsonSchema;
  return json;
}

export class SchemaRenderer {
  readonly components: Record<string, JsonSchema> = {};
  readonly problems: string[] = [];
  private readonly names = schemaNames();
  private readonly roles = new Map<string, SchemaRole>();

  /** A $ref to the schema's component when it is named, else the schema inline. */
  ref(schema: z.core.$ZodType, role: SchemaRole): JsonSchema {
    const name = this.names.get(schema);
    if (name === undefined) return this.inline(schema, role);
    this.component(name, schema, role);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The schema itself at the top (named or not); named schemas inside it become $refs. */
  inline(schema: z.core.$ZodType, role: SchemaRole): JsonSchema {
    const nested: [string, z.core.$ZodType][] = [];
    const json = toJsonSchema(schema, role, {
      override: ({ zodSchema, jsonSchema, path }) => {
        // zod closes output objects (additionalProperties: false); an answer may gain fields in a
        // later version, so clients must not rely on that, and a schema reads the same both ways.
        if (role === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
        if (path.length === 0) return;
        const name = this.names.get(zodSchema);
        if (name === undefined) return;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
        jsonSchema.$ref = `#/components/schemas/${name}`;
        nested.push([name, zodSchema]);
      },
    });
    for (const [name, inner] of nested) this.component(name, inner, role);
    return json;
  }

  private component(name: string, schema: z.core.$ZodType, role: SchemaRole) {
    const seenAs = this.roles.get(name);
    if (seenAs === role) return;
    const json = this.inline(schema, role);
    const existing = this.components[name];
    if (existing && !isDeepStrictEqual(existing, json)) {
      this.problems.push(
        `${name} is both a request and a response schema, and the two differ (defaults or transforms): give the request its own schema`,
      );
    }
    this.components[name] ??= json;
    this.roles.set(name, role);
  }
}
