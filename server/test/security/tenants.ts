// Accounts with one of everything, made through the real API: the owners, strangers and banned
// users of the security tests, and the ids an attacker would put in a path, a query or a body.
import { runDueChecks } from "../../services/runDeploymentChecks";
import { randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { contactMessages, notifications, profiles, upgradeRequests } from "../../db/schema";
import { notify } from "../../services/notifications/notify";
import { buildUser, setPlan, type BuiltUser } from "../factories";
import { addDomainTo } from "../domains";
import { createSiteWith, htmlFile, postMultipart } from "../sites";
import type { TestClient, TestServer } from "../support";
import type { Route } from "./routeTable";
import { pngOfSize, png, uploadAvatar } from "../avatars";
import type { SessionsResponse } from "../../../common/account";
import type { CreatedApiTokenResponse } from "../../../common/apiTokens";
import type { CreatedWebhookResponse, WebhookDeliveryResponse } from "../../../common/webhooks";
import type { DeviceLoginStarted } from "../../../common/deviceLogin";
import type { DeploymentResponse, SiteFileResponse } from "../../../common/sites";
import type { DeployResponse } from "../../../common/deploys";
import { deployFiles, digestTarOf, manifestOf, openDeploy, postTar, sha256Of, type FileSpec } from "../deploys";

/** One site with everything hanging off it. */
export interface SiteKit {
  siteId: string;
  subdomain: string;
  /** index.html in the working tree. */
  fileId: string;
  /** Version 1, no longer live, so it can be rolled back to. */
  deploymentId: string;
  linkId: string;
  domainId: string;
  hostname: string;
  /** An open deploy of the site: index.html as it is, and one file not sent yet. */
  deployId: string;
  /** The digest of that file (missingFileOf). */
  missingSha256: string;
}

export interface Ids extends SiteKit {
  userId: string;
  email: string;
  /** The session the tenant's client is signed in with. */
  sessionId: string;
  /** A subdomain reserved by the wizard and not yet used. */
  reservedSubdomain: string;
  /** An API token of the tenant's (its id; the secret is not kept). */
  tokenId: string;
  /** A webhook of the tenant's, for the site of the kit above. */
  webhookId: string;
  /** A delivery of that webhook (a test ping, never sent: no worker runs in these tests). */
  deliveryId: string;
  /** A CLI sign-in request the tenant approved: nobody else may see or answer it. */
  userCode: string;
  /** A support message the tenant sent from the help page (only admins read it). */
  messageId: string;
  /** The tenant's request for Pro, made while on Free and still pending (only admins answer it). */
  upgradeRequestId: string;
  /** A notice in the tenant's feed. */
  notificationId: string;
}

/**
 * Where tenants' webhooks point: a loopback port nothing listens on. The security suite's servers
 * run no worker, so nothing is ever sent, and they allow private addresses (TENANT_ENV) so the
 * webhooks can be added at all without sending anything to an address outside this machine.
 */
export const TENANT_WEBHOOK_URL = "http://127.0.0.1:9/berth-webhook";

/**
 * The settings a server needs for tenant(): webhooks to TENANT_WEBHOOK_URL; and the metrics token,
 * so that the security suites judge GET /metrics too.
 */
export const TENANT_ENV = { BERTH_WEBHOOK_ALLOW_PRIVATE: "true", BERTH_METRICS_TOKEN: "security-suite-metrics-token" } as const;

export interface Tenant {
  client: TestClient;
  user: BuiltUser;
  ids: Ids;
}

/** A text that appears in a tenant's files and nowhere else: a response that shows it leaked. */
export const markerOf = (userId: string) => `secret-of-${userId}`;

let fill = 0;

export async function signIn(server: TestServer, user: BuiltUser): Promise<TestClient> {
  const client = server.client();
  const response = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return client;
}

/** The id of the session `client` is signed in with. */
export async function currentSessionId(client: TestClient): Promise<string> {
  const sessions = (await client.get("/api/me/sessions")).json<SessionsResponse>().sessions;
  return sessions.find((s) => s.current)!.id;
}

/** The file a site kit's open deploy has not received: its bytes are known from the site alone. */
export const missingFileOf = (siteId: string): FileSpec => ({ path: "deployed.html", content: `<p>deployed to ${siteId}</p>` });

/** The files of a site kit's open deploy: index.html as the site has it, and the missing one. */
export const deployFilesOf = (siteId: string, userId?: string): FileSpec[] => [
  ...(userId === undefined ? [] : [{ path: "index.html", content: `<p>${markerOf(userId)}</p>` }]),
  missingFileOf(siteId),
];

/** A site of `client`'s user (on Pro) with two versions, a share link, a custom domain and an open deploy. */
export async function siteKit(client: TestClient, userId: string): Promise<SiteKit> {
  const site = await createSiteWith(client, htmlFile(`<p>${markerOf(userId)}</p>`));
  const second = await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile("<p>about</p>", "about.html"));
  if (second.statusCode !== 201) throw new Error(`upload failed: ${second.body}`);
  const files = (await client.get(`/api/sites/${site.id}/files`)).json<{ files: SiteFileResponse[] }>().files;
  const deployments = (await client.get(`/api/sites/${site.id}/deployments`)).json<{ deployments: DeploymentResponse[] }>().deployments;
  const link = await client.post(`/api/sites/${site.id}/share-links`, { name: "For a friend" });
  if (link.statusCode !== 201) throw new Error(`share link failed: ${link.body}`);
  const hostname = `${randomBytes(6).toString("hex")}.example.com`;
  const domain = await addDomainTo(client, site.id, hostname);
  const deploy = await openDeploy(client, site.id, { files: manifestOf(deployFilesOf(site.id, userId)) });
  if (deploy.statusCode !== 201) throw new Error(`deploy failed: ${deploy.body}`);
  return {
    siteId: site.id,
    subdomain: site.subdomain,
    fileId: files.find((f) => f.filename === "index.html")!.id,
    deploymentId: deployments.find((d) => d.version === 1)!.id,
    linkId: link.json<{ id: string }>().id,
    domainId: domain.id,
    hostname,
    deployId: deploy.json<DeployResponse>().id,
    missingSha256: sha256Of(missingFileOf(site.id).content),
  };
}

/** A verified, signed-in Pro user with a picture, a reserved subdomain, a site kit, an API token and a webhook (the server needs TENANT_ENV). */
export async function tenant(server: TestServer, overrides: Parameters<typeof buildUser>[1] = {}): Promise<Tenant> {
  const user = await buildUser(server, overrides);
  const client = await signIn(server, user);
  const upgradeRequestId = await requestPro(client);
  await setPlan(server, user.id, "pro");
  fill += 1;
  const avatar = await uploadAvatar(client, png(pngOfSize(200, fill)));
  if (avatar.statusCode !== 200) throw new Error(`avatar failed: ${avatar.body}`);
  const kit = await siteKit(client, user.id);
  const reserved = await client.post("/api/subdomains/reserve", {});
  return {
    client,
    user,
    ids: {
      ...kit,
      userId: user.id,
      email: user.email,
      sessionId: await currentSessionId(client),
      reservedSubdomain: reserved.json<{ subdomain: string }>().subdomain,
      tokenId: await createTokenId(client),
      ...(await createWebhookIds(client, kit.siteId)),
      userCode: await approvedUserCode(server, client),
      messageId: await supportMessageId(server, client, user.id),
      upgradeRequestId,
      notificationId: await noticeFor(server, user.id),
    },
  };
}

/** Asks for Pro as `client`'s (Free) user: the request's id. */
export async function requestPro(client: TestClient): Promise<string> {
  const response = await client.post("/api/upgrade-request", {});
  if (response.statusCode !== 201) throw new Error(`upgrade request failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}

/** Sends a support message as `client`'s user: its id. */
export async function supportMessageId(server: TestServer, client: TestClient, userId: string): Promise<string> {
  const response = await client.post("/api/support", { subject: "Help", message: `A question from ${userId}` });
  if (response.statusCode !== 200) throw new Error(`support message failed: ${response.body}`);
  const [row] = await server.ctx.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.user_id, userId));
  return row!.id;
}

/** A new notice in the user's feed, with a marker in its title: its id. */
export async function noticeFor(server: TestServer, userId: string): Promise<string> {
  await notify(server.ctx, { userId, kind: "support_message", title: `A notice for ${markerOf(userId)}` });
  const [row] = await server.ctx.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.user_id, userId))
    .orderBy(desc(notifications.created_at))
    .limit(1);
  return row!.id;
}

/** A new webhook of `client`'s user for `siteId`, with one queued delivery: their ids. */
export async function createWebhookIds(client: TestClient, siteId: string): Promise<{ webhookId: string; deliveryId: string }> {
  const created = await client.post("/api/webhooks", { url: TENANT_WEBHOOK_URL, siteId, events: ["deploy.succeeded", "deploy.rolled_back"] });
  if (created.statusCode !== 201) throw new Error(`webhook failed: ${created.body}`);
  const webhookId = created.json<CreatedWebhookResponse>().webhook.id;
  const ping = await client.post(`/api/webhooks/${webhookId}/test`);
  if (ping.statusCode !== 202) throw new Error(`webhook test failed: ${ping.body}`);
  return { webhookId, deliveryId: ping.json<WebhookDeliveryResponse>().id };
}

/** The user code of a new CLI sign-in request, started as the CLI does (signed out, from its own address). */
export async function pendingUserCode(server: TestServer): Promise<string> {
  const response = await server.client().post("/api/cli/login", { client_name: "build-server" });
  if (response.statusCode !== 201) throw new Error(`CLI sign-in failed: ${response.body}`);
  return response.json<DeviceLoginStarted>().user_code;
}

/** A CLI sign-in request that `client`'s user approved. */
export async function approvedUserCode(server: TestServer, client: TestClient): Promise<string> {
  const code = await pendingUserCode(server);
  const response = await client.post(`/api/cli/login/${code}/approve`, {});
  if (response.statusCode !== 200) throw new Error(`approval failed: ${response.body}`);
  return code;
}

/** A new API token of `client`'s user, for all their sites: its id. */
export async function createTokenId(client: TestClient): Promise<string> {
  const response = await client.post("/api/tokens", { name: "A script", permission: "full" });
  if (response.statusCode !== 201) throw new Error(`token failed: ${response.body}`);
  return response.json<CreatedApiTokenResponse>().token.id;
}

/**
 * The owner's ids for one call that must go through: a site kit shared by the calls that leave it
 * usable (held in `shared`), a fresh one for those that delete or replace something (DELETE,
 * restore, rollback), and what the route uses up (a deleted site to restore, a token, a webhook or
 * a session to end, a reserved subdomain, a CLI sign-in request to answer).
 */
export async function ownerCallIds(server: TestServer, owner: Tenant, route: Route, shared: { kit?: SiteKit }): Promise<Ids> {
  let ids: Ids = owner.ids;
  // Asking for Pro takes a Free account without an open request; every other call wants Pro.
  if (route.key === "POST /api/upgrade-request") {
    await setPlan(server, owner.user.id, "free");
    await server.ctx.db.update(upgradeRequests).set({ status: "declined" }).where(eq(upgradeRequests.user_id, owner.user.id));
  } else await setPlan(server, owner.user.id, "pro");
  // Answering a request uses it up: a new Free user's, each time.
  if (route.key === "POST /api/admin/upgrade-requests/:requestId/answer") {
    ids = { ...ids, upgradeRequestId: await requestPro(await signIn(server, await buildUser(server))) };
  }
  if (route.params.includes("siteId") || route.params.includes("domainId")) {
    const consumes = route.method === "DELETE" || /\/(restore|restore-at|rollback|promote|publish|fix-case|use-index)$/.test(route.url);
    const kit = consumes ? await siteKit(owner.client, owner.user.id) : (shared.kit ??= await siteKit(owner.client, owner.user.id));
    ids = { ...ids, ...kit };
  }
  if (route.key === "POST /api/sites/:siteId/restore") await owner.client.delete(`/api/sites/${ids.siteId}`);
  if (route.url.startsWith("/api/cli/login/:userCode/")) ids = { ...ids, userCode: await pendingUserCode(server) };
  // A publish needs every file sent; a promotion, a draft.
  if (route.key === "POST /api/sites/:siteId/deploys/:deployId/publish") {
    const sent = await postTar(owner.client, ids.siteId, ids.deployId, digestTarOf([missingFileOf(ids.siteId)]));
    if (sent.statusCode !== 200) throw new Error(`upload failed: ${sent.body}`);
  }
  if (route.key === "POST /api/sites/:siteId/deployments/:deploymentId/promote") {
    const { published } = await deployFiles(owner.client, ids.siteId, [{ path: "index.html", content: "<p>a draft</p>" }], { draft: true });
    ids = { ...ids, deploymentId: published.deployment!.id };
  }
  // A fix needs a live version whose check found what it fixes.
  if (route.url.includes("/check/")) ids = { ...ids, deploymentId: await checkedProblemVersion(server, owner.client, ids.siteId) };
  if (route.key === "DELETE /api/tokens/:tokenId") ids = { ...ids, tokenId: await createTokenId(owner.client) };
  if (route.key === "DELETE /api/webhooks/:webhookId") ids = { ...ids, ...(await createWebhookIds(owner.client, ids.siteId)) };
  if (route.key === "DELETE /api/me/sessions/:sessionId") ids = { ...ids, sessionId: await currentSessionId(await signIn(server, owner.user)) };
  if (route.key === "POST /api/sites")
    ids = { ...ids, reservedSubdomain: (await owner.client.post("/api/subdomains/reserve", {})).json<{ subdomain: string }>().subdomain };
  return ids;
}

export async function setBanned(server: TestServer, userId: string, banned: boolean): Promise<void> {
  await server.ctx.db
    .update(profiles)
    .set({ banned_at: banned ? new Date() : null })
    .where(eq(profiles.id, userId));
}

/** Publishes a version with a case mismatch and no index.html to the site and runs its check: the version's id. */
export async function checkedProblemVersion(server: TestServer, client: TestClient, siteId: string): Promise<string> {
  const { published } = await deployFiles(client, siteId, [
    { path: "Home.html", content: '<img src="logo.png">' },
    { path: "Logo.png", content: "not really a png" },
  ]);
  const deploymentId = published.deployment!.id;
  while ((await runDueChecks(server.ctx)) > 0);
  return deploymentId;
}
