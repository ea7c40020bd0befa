// Fastify's schema compilers, replaced by ones that refuse. Berth's routes validate what they are
// sent with zod (api/validate.ts) and describe themselves in `config.doc` for the API reference;
// none gives Fastify a JSON schema. Fastify's own compilers, Ajv and fast-json-stringify, would
// load about 130 modules into every server for nothing, so they are never asked for. A route
// that did give Fastify a schema fails at start-up with this message instead of being checked
// by a second validator that the API reference knows nothing of.
import type { FastifyServerOptions } from "fastify";

export const JSON_SCHEMA_REFUSED =
  "A route gave Fastify a JSON schema: Berth's routes validate with zod (server/api/validate.ts) and document themselves in config.doc";

function refuse(): never {
  throw new Error(JSON_SCHEMA_REFUSED);
}

export const ZOD_ONLY_SCHEMAS: NonNullable<FastifyServerOptions["schemaController"]> = {
  compilersFactory: { buildValidator: refuse, buildSerializer: refuse },
};
