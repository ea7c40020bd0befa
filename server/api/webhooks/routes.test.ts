import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAP_TEXT } from "../../../common/limits";
import {
  WEBHOOK_DELIVERY_LIST_LIMIT,
  type CreatedWebhookResponse,
  type WebhookDeliveryResponse,
  type WebhookResponse,
} from "../../../common/webhooks";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { createToken, tokenClient } from "../../test/apiTokens";
import { signedInClient } from "../../test/factories";
import { createSiteWith, htmlFile } from "../../test/sites";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { createWebhook } from "../../test/webhooks";

// Nothing listens there and no worker runs in these tests: the rows are what is checked.
const URL_A = "http://127.0.0.1:9/hooks/a";

describe.each(DRIVERS)("/api/webhooks (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_WEBHOOK_ALLOW_PRIVATE: "true" } });
  });
  afterAll(() => server.close());

  const deliveriesOf = (endpointId: string) => server.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpointId));

  it("adds a webhook and shows its secret once; the database keeps it sealed", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    const response = await client.post("/api/webhooks", {
      url: ` ${URL_A}#frag `,
      siteId: site.id,
      events: ["site.deleted", "deploy.succeeded", "site.deleted"],
    });
    expect(response.statusCode, response.body).toBe(201);
    const { webhook, secret } = response.json<CreatedWebhookResponse>();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({
      url: URL_A,
      site: { id: site.id, name: site.name, subdomain: site.subdomain },
      events: ["deploy.succeeded", "site.deleted"],
      enabled: true,
      last_delivery: null,
    });
    const listed = (await client.get("/api/webhooks")).json<{ webhooks: WebhookResponse[] }>().webhooks;
    expect(listed).toEqual([webhook]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    const [row] = await server.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(row!.secret_encrypted).not.toContain(secret.slice(6));
  });

  it.each([
    ["an empty URL", { url: "", events: ["deploy.succeeded"] }, "url", /Enter the URL/],
    ["not a URL", { url: "not a url", events: ["deploy.succeeded"] }, "url", /such as https:/],
    ["an ftp URL", { url: "ftp://example.com/x", events: ["deploy.succeeded"] }, "url", /https:\/\/ or http:\/\//],
    ["a URL with credentials", { url: "https://user:pass@example.com/x", events: ["deploy.succeeded"] }, "url", /user name and password/],
    ["a URL too long", { url: `https://example.com/${"a".repeat(2000)}`, events: ["deploy.succeeded"] }, "url", /at most 2000/],
    ["no events", { url: URL_A, events: [] }, "events", /at least one event/],
    ["an unknown event", { url: URL_A, events: ["deploy.started"] }, "events.0", /at least one event/],
    ["no events field", { url: URL_A }, "events", /at least one event/],
  ])("refuses %s with a message for its field", async (_label, body, field, message) => {
    const { client } = await signedInClient(server);
    const response = await client.post("/api/webhooks", body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.fields[field]).toMatch(message);
  });

  it("changes the URL and events, and disabling ends the pending deliveries", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, URL_A);
    await createSiteWith(client, htmlFile());
    expect(await deliveriesOf(hook.id)).toMatchObject([{ status: "pending", type: "deploy.succeeded" }]);

    const changed = await client.patch(`/api/webhooks/${hook.id}`, { url: "http://127.0.0.1:9/b", events: ["deploy.failed"] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      url: "http://127.0.0.1:9/b",
      events: ["deploy.failed"],
      enabled: true,
      last_delivery: { status: "pending" },
    });

    const disabled = await client.patch(`/api/webhooks/${hook.id}`, { enabled: false });
    expect(disabled.json()).toMatchObject({ enabled: false, last_delivery: { status: "failed", last_error: "Webhook disabled" } });
    expect((await client.post(`/api/webhooks/${hook.id}/test`)).json().error.code).toBe("webhook_disabled");
    // A disabled webhook hears of nothing new.
    await createSiteWith(client, htmlFile());
    expect(await deliveriesOf(hook.id)).toHaveLength(1);

    expect((await client.patch(`/api/webhooks/${hook.id}`, {})).statusCode).toBe(400);
    expect((await client.patch(`/api/webhooks/${hook.id}`, { enabled: true })).json()).toMatchObject({ enabled: true });
  });

  it("queues a test ping and redelivers a delivery with the same id", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, URL_A);
    const ping = await client.post(`/api/webhooks/${hook.id}/test`);
    expect(ping.statusCode, ping.body).toBe(202);
    const queued = ping.json<WebhookDeliveryResponse>();
    expect(queued).toMatchObject({ type: "ping", status: "pending", attempts: 0 });
    const [row] = await deliveriesOf(hook.id);
    expect(row!.payload).toMatchObject({ id: queued.id, type: "ping", webhook: { id: hook.id, url: URL_A } });

    // As if the worker had given up on it.
    await server.ctx.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 12, next_attempt_at: null, last_status_code: 500 })
      .where(eq(webhookDeliveries.id, queued.id));
    const again = await client.post(`/api/webhooks/${hook.id}/deliveries/${queued.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json()).toMatchObject({ id: queued.id, status: "pending", attempts: 0, last_status_code: 500 });

    // Not while a worker holds it.
    await server.ctx.db
      .update(webhookDeliveries)
      .set({ lease_token: crypto.randomUUID(), leased_until: new Date(Date.now() + 60_000) })
      .where(eq(webhookDeliveries.id, queued.id));
    const held = await client.post(`/api/webhooks/${hook.id}/deliveries/${queued.id}/redeliver`);
    expect(held.statusCode).toBe(409);
    expect(held.json().error.code).toBe("delivery_in_flight");

    for (const id of ["nope", crypto.randomUUID()]) {
      const missing = await client.post(`/api/webhooks/${hook.id}/deliveries/${id}/redeliver`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe("delivery_not_found");
    }
  });

  it(`lists an endpoint's last ${WEBHOOK_DELIVERY_LIST_LIMIT} deliveries, newest first`, async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, URL_A);
    for (let i = 0; i < WEBHOOK_DELIVERY_LIST_LIMIT + 3; i++) expect((await client.post(`/api/webhooks/${hook.id}/test`)).statusCode).toBe(202);
    const deliveries = (await client.get(`/api/webhooks/${hook.id}/deliveries`)).json<{ deliveries: WebhookDeliveryResponse[] }>().deliveries;
    expect(deliveries).toHaveLength(WEBHOOK_DELIVERY_LIST_LIMIT);
    const times = deliveries.map((d) => d.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await client.get("/api/webhooks")).json().webhooks[0].last_delivery.id).toBe(deliveries[0]!.id);
  });

  it("deletes a webhook with its deliveries", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, URL_A);
    await client.post(`/api/webhooks/${hook.id}/test`);
    expect((await client.delete(`/api/webhooks/${hook.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/webhooks/${hook.id}`)).statusCode).toBe(404);
    expect(await deliveriesOf(hook.id)).toEqual([]);
  });

  it("caps an account at 20 webhooks, naming the cap", async () => {
    const { client } = await signedInClient(server);
    const answers = await Promise.all(
      Array.from({ length: 23 }, (_, i) => client.post("/api/webhooks", { url: `${URL_A}/${i}`, events: ["deploy.failed"] })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json().error).toEqual({ code: "webhook_limit_reached", message: CAP_TEXT.webhooks(20) });
    const [hook] = (await client.get("/api/webhooks")).json<{ webhooks: WebhookResponse[] }>().webhooks;
    expect((await client.delete(`/api/webhooks/${hook!.id}`)).statusCode).toBe(204);
    expect((await client.post("/api/webhooks", { url: URL_A, events: ["deploy.failed"] })).statusCode).toBe(201);
  });

  it("answers another user's webhook, delivery or site with the 404 of a missing one", async () => {
    const owner = await signedInClient(server);
    const site = await createSiteWith(owner.client, htmlFile());
    const hook = await createWebhook(owner.client, URL_A, { siteId: site.id });
    const delivery = (await owner.client.post(`/api/webhooks/${hook.id}/test`)).json<WebhookDeliveryResponse>();
    const { client: stranger } = await signedInClient(server);
    const own = await createWebhook(stranger, URL_A);

    const calls: [string, (c: TestClient) => ReturnType<TestClient["get"]>][] = [
      ["PATCH", (c) => c.patch(`/api/webhooks/${hook.id}`, { enabled: false })],
      ["DELETE", (c) => c.delete(`/api/webhooks/${hook.id}`)],
      ["deliveries", (c) => c.get(`/api/webhooks/${hook.id}/deliveries`)],
      ["test", (c) => c.post(`/api/webhooks/${hook.id}/test`)],
      ["redeliver", (c) => c.post(`/api/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`)],
      // The stranger's own webhook with the owner's delivery.
      ["redeliver under own", (c) => c.post(`/api/webhooks/${own.id}/deliveries/${delivery.id}/redeliver`)],
    ];
    for (const [name, call] of calls) {
      const response = await call(stranger);
      expect(response.statusCode, name).toBe(404);
      expect(response.body, name).not.toContain(URL_A);
    }
    expect((await stranger.get("/api/webhooks")).json().webhooks.map((w: WebhookResponse) => w.id)).toEqual([own.id]);
    const onTheirSite = await stranger.post("/api/webhooks", { url: URL_A, siteId: site.id, events: ["deploy.failed"] });
    expect(onTheirSite.statusCode).toBe(404);
    expect(await deliveriesOf(hook.id)).toMatchObject([{ id: delivery.id, status: "pending" }]);
    expect((await owner.client.get("/api/webhooks")).json().webhooks[0]).toMatchObject({ id: hook.id, enabled: true });
  });

  it("refuses a deleted site", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile());
    await client.delete(`/api/sites/${site.id}`);
    const response = await client.post("/api/webhooks", { url: URL_A, siteId: site.id, events: ["deploy.failed"] });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("site_deleted");
  });

  it("lets a read token list, a full token manage, and a one-site token only its site's webhooks", async () => {
    const { client } = await signedInClient(server);
    const mine = await createSiteWith(client, htmlFile());
    const other = await createSiteWith(client, htmlFile());
    const all = await createWebhook(client, URL_A);
    const onOther = await createWebhook(client, URL_A, { siteId: other.id });

    const read = tokenClient(server, (await createToken(client, "read")).secret);
    expect((await read.get("/api/webhooks")).json().webhooks).toHaveLength(2);
    expect((await read.get(`/api/webhooks/${all.id}/deliveries`)).statusCode).toBe(200);
    const refused = await read.post("/api/webhooks", { url: URL_A, events: ["deploy.failed"] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("token_not_permitted");

    const full = tokenClient(server, (await createToken(client, "full")).secret);
    expect((await full.post("/api/webhooks", { url: URL_A, events: ["deploy.failed"] })).statusCode).toBe(201);

    const oneSite = tokenClient(server, (await createToken(client, "full", { siteId: mine.id })).secret);
    expect((await oneSite.get("/api/webhooks")).json().webhooks).toEqual([]);
    const allSites = await oneSite.post("/api/webhooks", { url: URL_A, events: ["deploy.failed"] });
    expect(allSites.statusCode).toBe(403);
    expect(allSites.json().error.code).toBe("token_out_of_scope");
    expect((await oneSite.post("/api/webhooks", { url: URL_A, siteId: other.id, events: ["deploy.failed"] })).statusCode).toBe(404);
    const created = await oneSite.post("/api/webhooks", { url: URL_A, siteId: mine.id, events: ["deploy.failed"] });
    expect(created.statusCode).toBe(201);
    expect((await oneSite.get("/api/webhooks")).json().webhooks.map((w: WebhookResponse) => w.id)).toEqual([created.json().webhook.id]);
    for (const id of [all.id, onOther.id]) {
      expect((await oneSite.get(`/api/webhooks/${id}/deliveries`)).statusCode).toBe(404);
      expect((await oneSite.delete(`/api/webhooks/${id}`)).statusCode).toBe(404);
    }
  });
});
