// What a route says about itself for the API reference, beside its registration:
//
//   app.patch("/api/sites/:siteId", {
//     preHandler: guard.ownSiteForChange,
//     config: { token: "full", doc: { summary: "Rename a site", tags: ["Sites"], body: UpdateSiteRequest, response: { 200: SiteResponse } } },
//   }, async (request) => { … parseBody(request, UpdateSiteRequest) … });
//
// The schemas are the zod objects the handler validates with: parseBody, parseQuery and
// parseFormFields (validate.ts) refuse a schema the route's doc does not declare, so what is
// documented is what is checked. Who may call the route is not written here: the document reads it
// from the route's guard and `config.token`; a route without a guard must say `public: true`.
import type { z } from "zod";

/** The reference's sections, in the order it shows them. */
export const API_TAGS = {
  Sites: "Create, list, change, delete and restore sites.",
  Files: "A site's working tree. Every change publishes a new deployment at once.",
  Deploys:
    "Publish a folder, sending only the files the server lacks: a manifest, the missing files, then publish (live or as a draft); or one zip or .tar.gz.",
  Deployments: "A site's versions: publish the working tree again, or roll back to an earlier one.",
  History:
    "Each file's and folder's versions, deleted files, restoring any of them (or the site as it was at a moment, Pro) as a new version, and comparing two versions.",
  Analytics: "Page views, visitors and bandwidth, counted at the edge.",
  "Share links": "Private links to a site, and the site's visibility (Pro).",
  Domains: "Custom domains and their provisioning (Pro).",
  Account: "The signed-in user's profile, picture, sessions, and where each kind of notification goes.",
  "API tokens": "Tokens for scripts, CI and the command-line tool. Managed from a browser session only.",
  "CLI sign-in": "How the berth command signs in through a browser (the device flow), and who a token acts for.",
  Webhooks: "Signed POSTs to your own URL when a deploy succeeds or fails, a site is rolled back or deleted; their deliveries.",
  Notifications: "Your notification feed: what happened to your sites, domains, storage and plan, newest first.",
  Admin: "The operator's API: users, plans, bans and storage. Admins only.",
  Service: "Health, public settings, legal texts, the contact form and this reference.",
} as const;
export type ApiTag = keyof typeof API_TAGS;

/** A response without a JSON schema (204, a file, a stream), or with a description of its own. */
export interface ResponseDoc {
  description: string;
  /** The body's schema, as JSON unless `contentType` says otherwise. */
  schema?: z.ZodType;
  /** For bodies that are not JSON: "application/octet-stream", "text/event-stream"… */
  contentType?: string;
}

export interface RouteDoc {
  /** One line, starting with a verb: "List your sites". */
  summary: string;
  /** Anything a caller must know beyond the summary and the schemas: plan rules, side effects. */
  description?: string;
  tags: [ApiTag, ...ApiTag[]];
  /** The route has no guard on purpose: anyone may call it. */
  public?: true;
  /** The JSON body, validated with parseBody. */
  body?: z.ZodType;
  /** A multipart/form-data body: text fields first (validated with parseFormFields), then one file part named "file". */
  form?: { fields?: z.ZodType; file: string };
  /** Bodies sent as they are (content type → what to send), e.g. { "application/zip": "The folder, zipped" }. */
  binary?: Record<string, string>;
  /** The query string, validated with parseQuery. */
  query?: z.ZodObject;
  /** The answers on success, by status: a JSON schema, or a ResponseDoc. */
  response: Partial<Record<200 | 201 | 202 | 204 | 304 | 503, z.ZodType | ResponseDoc>>;
  /** Error answers beyond those the guard and the validation already imply (status → when). */
  errors?: Partial<Record<400 | 402 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 507, string>>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's entry in the API reference (GET /api/openapi.json). Every /api route needs one. */
    doc?: RouteDoc;
  }
}
