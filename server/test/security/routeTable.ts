// The route table as the app itself registers it (an onRoute hook on a real build), and the few
// decisions a person has to make for each route: is it public, where do its path parameters' ids
// come from, and what does a well-formed body look like. A route added to the app without such a
// decision makes the security tests fail and say which one.
import { randomBytes } from "node:crypto";
import type { RouteOptions } from "fastify";
import type { ApiTokenPermission } from "../../../common/apiTokens";
import { getTestServer } from "../support";
import { htmlFile, multipartBody, type UploadPart } from "../sites";
import { png, pngOfSize } from "../avatars";
import type { TestClient } from "../support";
import { bytesOf, digestTarOf, manifestOf } from "../deploys";
import { deployFilesOf, missingFileOf, TENANT_ENV, TENANT_WEBHOOK_URL, type Ids } from "./tenants";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Route {
  method: Method;
  /** As registered, e.g. "/api/sites/:siteId/files/:fileId". */
  url: string;
  /** "METHOD url", the key of the tables below. */
  key: string;
  params: string[];
}

/** Every route of a real build (HEAD twins of GET routes left out), in registration order. */
export async function collectRoutes(): Promise<Route[]> {
  const seen: Route[] = [];
  const onRoute = (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      const url = route.url;
      seen.push({ method: method as Method, url, key: `${method} ${url}`, params: [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!) });
    }
  };
  // With the routes that only some settings add (GET /metrics), so that they are judged too.
  const server = await getTestServer("pglite", { app: { onRoute }, env: TENANT_ENV });
  await server.close();
  return seen;
}

/**
 * Routes anyone may call, guests included. Every other route must answer a guest 401 (or, for
 * /api/admin, the 404 of an unknown route).
 */
export const PUBLIC_ROUTES = new Set([
  "GET /api/health",
  "GET /api/config",
  "GET /api/legal/terms",
  "GET /api/legal/privacy",
  "POST /api/contact",
  // The API reference: the same document for everyone.
  "GET /api/openapi.json",
  // better-auth: sign-up, sign-in, reset… Its endpoints that need a session check it themselves.
  "GET /api/auth/*",
  "POST /api/auth/*",
  // Caddy's on-demand TLS question; answers only whether a hostname is an active domain.
  "GET /internal/tls/ask",
  // The CLI's sign-in from the browser: it starts signed out, and polls with its own secret.
  "POST /api/cli/login",
  "POST /api/cli/login/poll",
]);

/**
 * Routes for the operator's own bearer secret, not a user's: Prometheus' scrape with
 * BERTH_METRICS_TOKEN. Anyone without it, a user's API token included, gets 401.
 */
export const OPERATOR_TOKEN_ROUTES = new Set(["GET /metrics"]);

/** Only admins; everyone else gets the same 404 as an unknown route. */
export const isAdminRoute = (route: Route) => route.url.startsWith("/api/admin/");

/**
 * The permission an API token needs on each route that takes one; every other route refuses
 * tokens (403 session_only; the admin API the 404 it gives everyone). read: reading sites,
 * deployments, deploys, files, stats and analytics; deploy: also publishing (every change in the
 * Files tab publishes, the deploy API), rollback and promotion; full: every other site, domain and share-link route. Never the
 * account, its sessions, its tokens, sign-in or admin.
 */
export const TOKEN_PERMISSIONS: Record<string, ApiTokenPermission> = {
  "GET /api/sites": "read",
  "GET /api/sites/:siteId": "read",
  "GET /api/stats": "read",
  "GET /api/sites/:siteId/deployments": "read",
  "GET /api/sites/:siteId/files": "read",
  "GET /api/sites/:siteId/files/manifest": "read",
  "GET /api/sites/:siteId/files/:fileId/download": "read",
  "GET /api/sites/:siteId/analytics": "read",
  "POST /api/sites/:siteId/deployments": "deploy",
  "POST /api/sites/:siteId/deployments/:deploymentId/rollback": "deploy",
  "POST /api/sites/:siteId/deployments/:deploymentId/promote": "deploy",
  "GET /api/sites/:siteId/deployments/:deploymentId/check": "read",
  "POST /api/sites/:siteId/deployments/:deploymentId/check/fix-case": "deploy",
  "POST /api/sites/:siteId/deployments/:deploymentId/check/use-index": "deploy",
  "GET /api/sites/:siteId/deploys/:deployId": "read",
  "POST /api/sites/:siteId/deploys": "deploy",
  "PUT /api/sites/:siteId/deploys/:deployId/files/:sha256": "deploy",
  "POST /api/sites/:siteId/deploys/:deployId/files": "deploy",
  "POST /api/sites/:siteId/deploys/:deployId/publish": "deploy",
  "POST /api/sites/:siteId/files": "deploy",
  "POST /api/sites/:siteId/folders": "deploy",
  "DELETE /api/sites/:siteId/files/:fileId": "deploy",
  // History: reading it is reading files; a restore publishes, as every change in the Files tab does.
  "GET /api/sites/:siteId/history": "read",
  "GET /api/sites/:siteId/history/deleted": "read",
  "GET /api/sites/:siteId/history/live-periods": "read",
  "GET /api/sites/:siteId/deployments/:deploymentId/download": "read",
  "GET /api/sites/:siteId/compare": "read",
  "POST /api/sites/:siteId/history/restore": "deploy",
  "POST /api/sites/:siteId/history/restore-at": "deploy",
  "POST /api/subdomains/reserve": "full",
  "POST /api/sites": "full",
  "PATCH /api/sites/:siteId": "full",
  "PATCH /api/sites/:siteId/schedule": "full",
  "PUT /api/sites/:siteId/password": "full",
  "DELETE /api/sites/:siteId/password": "full",
  "DELETE /api/sites/:siteId": "full",
  "POST /api/sites/:siteId/restore": "full",
  "PUT /api/sites/:siteId/visibility": "full",
  "GET /api/sites/:siteId/share-links": "full",
  "POST /api/sites/:siteId/share-links": "full",
  "PATCH /api/sites/:siteId/share-links/:linkId": "full",
  "DELETE /api/sites/:siteId/share-links/:linkId": "full",
  "GET /api/sites/:siteId/share-links/:linkId/opens": "full",
  "GET /api/domains": "full",
  "GET /api/sites/:siteId/domains": "full",
  "POST /api/sites/:siteId/domains": "full",
  "POST /api/domains/:domainId/check": "full",
  "DELETE /api/domains/:domainId": "full",
  "GET /api/webhooks": "read",
  "GET /api/webhooks/:webhookId/deliveries": "read",
  "POST /api/webhooks": "full",
  "PATCH /api/webhooks/:webhookId": "full",
  "DELETE /api/webhooks/:webhookId": "full",
  "POST /api/webhooks/:webhookId/deliveries/:deliveryId/redeliver": "full",
  "POST /api/webhooks/:webhookId/test": "full",
  // The feed: a script may watch what happened; marking read is the person's, from a session.
  "GET /api/notifications": "read",
  "GET /api/notifications/unread-count": "read",
  // Who the token acts for: any token may ask, a one-site token too (it names no other site).
  "GET /api/whoami": "read",
};

/** The one route that takes a one-site token without naming a site: it lists only that site. */
export const SITE_LIST_ROUTE = "GET /api/sites";

/**
 * Routes that name no site but take a one-site token and keep it to its site's own things: the
 * webhook list shows only that site's webhooks, and every other webhook (or a webhook for another
 * site or for all sites, in a body) is the 404 of a missing one.
 */
export const TOKEN_SITE_SCOPED = new Set(Object.keys(TOKEN_PERMISSIONS).filter((key) => key.includes("/api/webhooks")));
export const WEBHOOK_LIST_ROUTE = "GET /api/webhooks";
/** The other: it tells the caller about itself (its user and token) and about no site. */
export const WHOAMI_ROUTE = "GET /api/whoami";

/** Where each path parameter's value comes from. */
export const PARAM_IDS: Record<string, keyof Ids> = {
  siteId: "siteId",
  fileId: "fileId",
  deploymentId: "deploymentId",
  deployId: "deployId",
  sha256: "missingSha256",
  linkId: "linkId",
  domainId: "domainId",
  sessionId: "sessionId",
  tokenId: "tokenId",
  webhookId: "webhookId",
  deliveryId: "deliveryId",
  userCode: "userCode",
  notificationId: "notificationId",
  id: "userId",
  messageId: "messageId",
  requestId: "upgradeRequestId",
};

/** better-auth's state-changing endpoints behind POST /api/auth/*, with bodies that would work. */
export const AUTH_WRITES: Record<string, (ids: Ids) => Shape> = {
  "/api/auth/sign-in/email": (ids) => ({ json: { email: ids.email, password: "correct horse battery" } }),
  "/api/auth/sign-up/email": () => ({
    json: { email: `new.${randomBytes(4).toString("hex")}@example.com`, password: "correct horse battery", name: "New" },
  }),
  "/api/auth/sign-out": () => ({ json: {} }),
  "/api/auth/request-password-reset": (ids) => ({ json: { email: ids.email, redirectTo: "/auth/reset-password" } }),
  "/api/auth/change-password": () => ({
    json: { currentPassword: "correct horse battery", newPassword: "a new password 123", revokeOtherSessions: true },
  }),
  "/api/auth/update-user": () => ({ json: { name: "Renamed by a forged form" } }),
  "/api/auth/revoke-sessions": () => ({ json: {} }),
  "/api/auth/revoke-other-sessions": () => ({ json: {} }),
  "/api/auth/send-verification-email": (ids) => ({ json: { email: ids.email } }),
  "/api/auth/two-factor/enable": () => ({ json: { password: "correct horse battery" } }),
};

/** A request body: JSON, a multipart form with one file, or bytes of a type (a deploy's files). */
export interface Shape {
  json?: Record<string, unknown>;
  form?: { fields: Record<string, string>; file: UploadPart };
  raw?: { body: Buffer; contentType: string };
}

const inADay = () => new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();

/** A well-formed body for every POST, PUT and PATCH route: the owner's call with it succeeds. */
export const SHAPES: Record<string, (ids: Ids) => Shape> = {
  "POST /api/contact": () => ({ json: { name: "Ann", email: "ann@example.com", subject: "Hello", message: "Just saying hello." } }),
  "PATCH /api/me/profile": () => ({ json: { full_name: "New Name", company: "", website: "" } }),
  "PUT /api/me/avatar": () => ({ form: { fields: {}, file: png(pngOfSize(300, 250)) } }),
  "PUT /api/me/notifications": () => ({ json: { deployFailed: false, domainActive: false, weeklySummary: true } }),
  "POST /api/me/sessions/revoke-others": () => ({ json: {} }),
  "PUT /api/me/notifications/channels": () => ({ json: { channels: { deploy_succeeded: { feed: false, email: true } } } }),
  "POST /api/notifications/:notificationId/read": () => ({ json: {} }),
  "POST /api/notifications/read-all": () => ({ json: {} }),
  "POST /api/subdomains/reserve": () => ({ json: {} }),
  "POST /api/sites": (ids) => ({ form: { fields: { name: "New site", subdomain: ids.reservedSubdomain }, file: htmlFile() } }),
  "PATCH /api/sites/:siteId": () => ({ json: { name: "Renamed", description: "Changed" } }),
  "PATCH /api/sites/:siteId/schedule": () => ({ json: { expiresAt: inADay(), publishAt: null } }),
  "POST /api/sites/:siteId/share-links": () => ({ json: { name: "Another link", maxViews: 5 } }),
  "PATCH /api/sites/:siteId/share-links/:linkId": () => ({ json: { name: "Renamed link", revoked: true } }),
  "PUT /api/sites/:siteId/password": () => ({ json: { password: "a long site password" } }),
  "POST /api/sites/:siteId/restore": () => ({ json: {} }),
  "POST /api/sites/:siteId/files": () => ({ form: { fields: {}, file: htmlFile("<p>new</p>", "new.html") } }),
  "POST /api/sites/:siteId/folders": () => ({ json: { name: `folder-${randomBytes(3).toString("hex")}` } }),
  "POST /api/sites/:siteId/deployments": () => ({ json: {} }),
  "POST /api/sites/:siteId/deployments/:deploymentId/rollback": () => ({ json: {} }),
  "POST /api/sites/:siteId/deployments/:deploymentId/promote": () => ({ json: {} }),
  "POST /api/sites/:siteId/history/restore": (ids) => ({ json: { deploymentId: ids.deploymentId, path: "index.html" } }),
  "POST /api/sites/:siteId/history/restore-at": () => ({ json: { at: new Date().toISOString() } }),
  "POST /api/sites/:siteId/deployments/:deploymentId/check/fix-case": () => ({ json: {} }),
  // The page checkedSiteIds (tenants.ts) publishes without an index.html.
  "POST /api/sites/:siteId/deployments/:deploymentId/check/use-index": () => ({ json: { path: "Home.html" } }),
  "POST /api/sites/:siteId/deploys": (ids) => ({ json: { files: manifestOf(deployFilesOf(ids.siteId)), message: "From the matrix" } }),
  "PUT /api/sites/:siteId/deploys/:deployId/files/:sha256": (ids) => ({
    raw: { body: bytesOf(missingFileOf(ids.siteId).content), contentType: "application/octet-stream" },
  }),
  "POST /api/sites/:siteId/deploys/:deployId/files": (ids) => ({
    raw: { body: digestTarOf([missingFileOf(ids.siteId)]), contentType: "application/x-tar" },
  }),
  "POST /api/sites/:siteId/deploys/:deployId/publish": () => ({ json: {} }),
  "POST /api/sites/:siteId/domains": () => ({ json: { domain: `${randomBytes(6).toString("hex")}.example.org` } }),
  "PUT /api/sites/:siteId/visibility": () => ({ json: { visibility: "private" } }),
  "POST /api/domains/:domainId/check": () => ({ json: {} }),
  "POST /api/webhooks": (ids) => ({ json: { url: TENANT_WEBHOOK_URL, siteId: ids.siteId, events: ["deploy.succeeded", "site.deleted"] } }),
  "PATCH /api/webhooks/:webhookId": () => ({ json: { url: `${TENANT_WEBHOOK_URL}/changed`, events: ["deploy.failed"], enabled: true } }),
  "POST /api/webhooks/:webhookId/deliveries/:deliveryId/redeliver": () => ({ json: {} }),
  "POST /api/webhooks/:webhookId/test": () => ({ json: {} }),
  "POST /api/cli/login": () => ({ json: { client_name: "build-server" } }),
  "POST /api/cli/login/poll": () => ({ json: { device_code: randomBytes(32).toString("base64url") } }),
  "POST /api/cli/login/:userCode/approve": () => ({ json: {} }),
  "POST /api/cli/login/:userCode/deny": () => ({ json: {} }),
  "POST /api/tokens": (ids) => ({ json: { name: "Deploy from CI", permission: "deploy", siteId: ids.siteId, expiresInDays: 30 } }),
  "PATCH /api/admin/users/:id": () => ({ json: { plan: "pro", banned: true } }),
  "POST /api/admin/users/:id/password-reset": () => ({ json: {} }),
  "POST /api/support": () => ({ json: { subject: "Help", message: "How do I add a domain?" } }),
  // The plan asked for is the route's own field: the one plan above Free, so a stray "plan" cannot win.
  "POST /api/upgrade-request": () => ({ json: { plan: "pro" } }),
  "PATCH /api/admin/messages/:messageId": () => ({ json: { handled: true } }),
  "POST /api/admin/messages/:messageId/reply": () => ({ json: { message: "Thanks, it is fixed." } }),
  "POST /api/admin/upgrade-requests/:requestId/answer": () => ({ json: { decision: "approve" } }),
};

/** The query a route needs to succeed (the rest read theirs as optional): added by pathOf. */
export const QUERIES: Record<string, (ids: Ids) => Record<string, string>> = {
  // The site kit's version 1 has index.html.
  "GET /api/sites/:siteId/deployments/:deploymentId/download": () => ({ path: "index.html" }),
};

export const hasBody = (method: Method) => method === "POST" || method === "PUT" || method === "PATCH";

/**
 * The route's path with each parameter taken from `ids` (or from `override` for the first one),
 * and the query it needs (QUERIES); add to it with withQuery.
 */
export function pathOf(route: Route, ids: Ids, firstFrom: Ids = ids): string {
  const path = route.url.replace(/:(\w+)/g, (_match, name: string) => {
    const key = PARAM_IDS[name];
    if (!key) throw new Error(`${route.key}: no decision for the path parameter :${name} (add it to PARAM_IDS)`);
    return encodeURIComponent(String((name === route.params[0] ? firstFrom : ids)[key]));
  });
  const query = QUERIES[route.key];
  return query ? withQuery(path, query(ids)) : path;
}

/** The URL with these parameters added to its query. */
export function withQuery(url: string, params: Record<string, string>): string {
  return url + (url.includes("?") ? "&" : "?") + new URLSearchParams(params).toString();
}

export function shapeOf(route: Route, ids: Ids): Shape {
  if (!hasBody(route.method)) return {};
  const shape = SHAPES[route.key];
  if (!shape) throw new Error(`${route.key}: no body decided for this route (add one to SHAPES)`);
  return shape(ids);
}

/** Sends `shape` as JSON, multipart or raw bytes, with any extra headers. */
export function send(client: TestClient, method: Method, url: string, shape: Shape, headers: Record<string, string> = {}) {
  if (shape.raw) return client.request(method, url, { headers: { ...headers, "content-type": shape.raw.contentType }, payload: shape.raw.body });
  if (shape.form) {
    const { body, contentType } = multipartBody(shape.form.fields, shape.form.file);
    return client.request(method, url, { headers: { ...headers, "content-type": contentType }, payload: body });
  }
  if (shape.json !== undefined) return client.request(method, url, { json: shape.json, headers });
  return client.request(method, url, { headers });
}
