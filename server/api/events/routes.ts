// GET /api/events: server-sent events for the signed-in user's open dashboards. Only news of the
// user's own sites and feed is written to their stream.
import type { FastifyInstance } from "fastify";
import { ServerEvent } from "../../../common/sites";
import type { AppContext } from "../../context";
import type { DeploymentChanged, DomainChanged, SiteChanged, AnalyticsUpdated, NotificationAdded } from "../../events";
import type { RouteDoc } from "../openapi/routeDoc";
import { routeGuards } from "../routeGuards";
import { presentDeployment } from "../sites/present";

/** A comment line every 30 s keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 30_000;

/**
 * What may wait unread for one stream, past what the kernel's socket buffers hold. A dashboard
 * reads its events as they come (a few a second at most, each under 1 KB); a client that has
 * stopped reading would otherwise have the server keep every later event of its account in
 * memory for as long as it stays connected. Such a stream is cut; a dashboard that was only
 * asleep reconnects and reloads what it shows (web/components/sites/detail/eventStream.ts).
 */
export const MAX_UNREAD_BYTES = 256 * 1024;

export async function eventRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  const doc = {
    summary: "Follow changes to your sites",
    description:
      "Server-sent events for open dashboards: one JSON object per `data:` line when a deployment, a site, a custom domain or a site's analytics changed or a notice reached your feed, and a comment line every 30 seconds. A stream whose client stops reading is closed; reconnect and reload what you show.",
    tags: ["Sites"],
    response: { 200: { description: "An endless event stream.", contentType: "text/event-stream", schema: ServerEvent } },
  } satisfies RouteDoc;

  app.get("/api/events", { preHandler: guard.signedIn, config: { doc } }, async (request, reply) => {
    const { user } = request;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    const write = (text: string) => {
      if (res.destroyed) return;
      if (res.writableLength > MAX_UNREAD_BYTES) {
        request.log.info({ unreadBytes: res.writableLength }, "event stream cut: its client stopped reading");
        res.destroy();
        return;
      }
      res.write(text);
    };
    write("retry: 1000\n\n");
    const send = (event: ServerEvent) => write(`data: ${JSON.stringify(event)}\n\n`);
    const onDeployment = (e: DeploymentChanged) => {
      if (e.userId !== user.id) return;
      const liveId = e.deployment.status === "success" ? e.deployment.id : null;
      send({ type: "deployment", site_id: e.siteId, deployment: presentDeployment(e.deployment, liveId, e.check) });
    };
    const onSite = (e: SiteChanged) => {
      if (e.userId === user.id) send({ type: "site", site_id: e.siteId });
    };
    const onDomain = (e: DomainChanged) => {
      if (e.userId === user.id) send({ type: "domain", site_id: e.siteId, domain_id: e.domainId });
    };
    const onAnalytics = (e: AnalyticsUpdated) => {
      if (e.userId === user.id) send({ type: "analytics", site_id: e.siteId });
    };
    const onNotification = (e: NotificationAdded) => {
      if (e.userId === user.id) send({ type: "notification", notification_id: e.notificationId });
    };
    ctx.events.on("deployment", onDeployment);
    ctx.events.on("notification", onNotification);
    ctx.events.on("analytics", onAnalytics);
    ctx.events.on("site", onSite);
    ctx.events.on("domain", onDomain);
    const heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
    // The response's close: the client went away, or the stream was cut above.
    res.on("close", () => {
      clearInterval(heartbeat);
      ctx.events.off("deployment", onDeployment);
      ctx.events.off("notification", onNotification);
      ctx.events.off("analytics", onAnalytics);
      ctx.events.off("site", onSite);
      ctx.events.off("domain", onDomain);
    });
  });
}
