// The webhook sender against a real receiver on loopback (BERTH_WEBHOOK_ALLOW_PRIVATE lets it reach
// 127.0.0.1): events of real publishes arrive signed, failures are retried with the same delivery
// id until one succeeds, nothing is sent twice, a restart loses nothing, and a host name is
// connected to at the address that was checked.
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WEBHOOK_HEADERS, type WebhookPayload } from "../../common/webhooks";
import { createDnsLookup } from "../dns";
import { webhookDeliveries } from "../db/schema";
import { startWorker } from "../jobs/worker";
import { TestDnsServer } from "../test/dnsServer";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../test/sites";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { createWebhook, WebhookReceiver } from "../test/webhooks";
import { verifyWebhookSignature } from "../webhooks/signature";
import { deliverDueWebhooks } from "./deliverWebhooks";

const SECOND = 1000;

describe.each(DRIVERS)("webhook deliveries (%s)", (driver) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let dnsServer: TestDnsServer;
  const dns = () => createDnsLookup([dnsServer.address]);

  beforeAll(async () => {
    dnsServer = await TestDnsServer.start();
    server = await getTestServer(driver, { env: { BERTH_WEBHOOK_ALLOW_PRIVATE: "true", BERTH_DNS_SERVERS: dnsServer.address } });
  });
  afterAll(async () => {
    await server.close();
    await dnsServer.close();
  });
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());

  const deliveriesOf = (endpointId: string) => server.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpointId));

  it("sends a publish's deploy.succeeded, signed with the endpoint's secret", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, receiver.url(), { events: ["deploy.succeeded"] });
    const site = await createSiteWith(client, htmlFile("<h1>v1</h1>"));

    expect(await deliverDueWebhooks(server.ctx, dns())).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.url).toBe("/hooks/berth");
    expect(request!.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": WEBHOOK_HEADERS.userAgent,
      "berth-event": "deploy.succeeded",
    });
    const signature = request!.headers["berth-signature"] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(hook.secret, request!.body, signature)).toBe(true);
    expect(verifyWebhookSignature("whsec_wrong", request!.body, signature)).toBe(false);

    const payload = JSON.parse(request!.body) as WebhookPayload;
    expect(Object.keys(payload)).toEqual(["id", "type", "created_at", "site", "deployment"]);
    expect(payload).toMatchObject({
      id: request!.headers["berth-delivery"],
      type: "deploy.succeeded",
      site: { id: site.id, name: site.name, subdomain: site.subdomain, url: site.url },
      deployment: { version: 1, status: "success", error: null, url: expect.stringContaining(`${site.subdomain}--v1.`) },
    });
    const [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200, last_error: null, lease_token: null });
    expect(row!.delivered_at).not.toBeNull();
    expect(row!.last_response_ms).toBeGreaterThanOrEqual(0);
  });

  it("sends only the events an endpoint asked for, of its site or of all sites", async () => {
    const { client } = await signedInClient(server);
    const first = await createSiteWith(client, htmlFile());
    const other = await createSiteWith(client, htmlFile());
    await createWebhook(client, receiver.url("/first"), { siteId: first.id, events: ["deploy.succeeded"] });
    await createWebhook(client, receiver.url("/all"), { events: ["site.deleted"] });

    expect((await postMultipart(client, `/api/sites/${other.id}/files`, {}, htmlFile("<p>2</p>", "two.html"))).statusCode).toBe(201);
    expect((await postMultipart(client, `/api/sites/${first.id}/files`, {}, htmlFile("<p>2</p>", "two.html"))).statusCode).toBe(201);
    expect((await client.delete(`/api/sites/${other.id}`)).statusCode).toBe(200);
    await deliverDueWebhooks(server.ctx, dns());

    const seen = receiver.received
      .map((r) => `${r.url} ${String(r.headers["berth-event"])} ${(JSON.parse(r.body) as WebhookPayload).site.id}`)
      .sort();
    expect(seen).toEqual([`/all site.deleted ${other.id}`, `/first deploy.succeeded ${first.id}`]);
  });

  it("tries a failing receiver again on the schedule, with the same delivery id, until it answers 2xx; then never again", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, receiver.url());
    await createSiteWith(client, htmlFile());
    receiver.answers.push(500, 302);

    const start = new Date();
    expect(await deliverDueWebhooks(server.ctx, dns(), start)).toBe(1);
    let [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500 });
    expect(row!.next_attempt_at!.getTime()).toBe(start.getTime() + 30 * SECOND);

    // Not due before its time.
    expect(await deliverDueWebhooks(server.ctx, dns(), new Date(start.getTime() + 29 * SECOND))).toBe(0);
    expect(await deliverDueWebhooks(server.ctx, dns(), new Date(start.getTime() + 30 * SECOND))).toBe(1);
    [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2, last_status_code: 302, last_error: "Redirects are not followed" });
    expect(row!.next_attempt_at!.getTime()).toBe(start.getTime() + 150 * SECOND);

    expect(await deliverDueWebhooks(server.ctx, dns(), new Date(start.getTime() + 150 * SECOND))).toBe(1);
    [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 200, last_error: null, next_attempt_at: null });

    const ids = receiver.received.map((r) => r.headers["berth-delivery"]);
    expect(ids).toEqual([row!.id, row!.id, row!.id]);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    // Delivered is final, whenever the worker looks again.
    expect(await deliverDueWebhooks(server.ctx, dns(), new Date(start.getTime() + 48 * 3600 * SECOND))).toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it("gives up a day after the event", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, receiver.url());
    await createSiteWith(client, htmlFile());
    receiver.status = 503;
    const [created] = await deliveriesOf(hook.id);
    let now = created!.created_at;
    for (let i = 0; i < 30 && (await deliverDueWebhooks(server.ctx, dns(), now)) > 0; i++) {
      const [row] = await deliveriesOf(hook.id);
      if (row!.status !== "pending") break;
      now = row!.next_attempt_at!;
    }
    const [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: "failed", attempts: 12, last_status_code: 503, next_attempt_at: null });
    expect(now.getTime() - created!.created_at.getTime()).toBeLessThanOrEqual(24 * 3600 * SECOND);
    expect(receiver.received).toHaveLength(12);
  });

  it("lets one worker at a time send a delivery (the lease), and takes it back from a worker that died", async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, receiver.url());
    await createSiteWith(client, htmlFile());
    const [row] = await deliveriesOf(hook.id);
    // A worker that claimed it and died: its lease runs for 60 s from its claim.
    const claimedAt = new Date();
    await server.ctx.db
      .update(webhookDeliveries)
      .set({ lease_token: crypto.randomUUID(), leased_until: new Date(claimedAt.getTime() + 60 * SECOND) })
      .where(eq(webhookDeliveries.id, row!.id));
    const [a, b] = await Promise.all([deliverDueWebhooks(server.ctx, dns(), claimedAt), deliverDueWebhooks(server.ctx, dns(), claimedAt)]);
    expect(a + b).toBe(0);
    // After the lease, two workers at once: exactly one sends.
    const later = new Date(claimedAt.getTime() + 61 * SECOND);
    const [c, d] = await Promise.all([deliverDueWebhooks(server.ctx, dns(), later), deliverDueWebhooks(server.ctx, dns(), later)]);
    expect(c + d).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("connects to the address the host name was checked at, keeping the name in Host", async () => {
    dnsServer.zone.set("receiver.example", { a: ["127.0.0.1"] });
    const { client } = await signedInClient(server);
    await createWebhook(client, `http://receiver.example:${receiver.port}/named`);
    await createSiteWith(client, htmlFile());
    expect(await deliverDueWebhooks(server.ctx, dns())).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`receiver.example:${receiver.port}`);
  });

  it("loses nothing when the server stops before the worker sends: the next one sends it, once", { timeout: 30_000 }, async () => {
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, receiver.url());
    await createSiteWith(client, htmlFile());
    expect(receiver.received).toHaveLength(0);

    // The same database and data directory, as after a restart; the new process's worker sends.
    server = await server.restart();
    const worker = startWorker(server.ctx);
    try {
      const deadline = Date.now() + 15 * SECOND;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      // A few more of the worker's one-second ticks: nothing more arrives.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    } finally {
      await worker.stop();
    }
    expect(receiver.received).toHaveLength(1);
    const [row] = await deliveriesOf(hook.id);
    expect(receiver.received[0]!.headers["berth-delivery"]).toBe(row!.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 1 });
  });
});

describe.each(DRIVERS)("webhooks to private addresses (%s)", (driver) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let dnsServer: TestDnsServer;

  beforeAll(async () => {
    dnsServer = await TestDnsServer.start();
    receiver = await WebhookReceiver.start();
    server = await getTestServer(driver, { env: { BERTH_DNS_SERVERS: dnsServer.address } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await dnsServer.close();
  });

  it("are refused when added, with a message under the URL", async () => {
    const { client } = await signedInClient(server);
    for (const url of [
      receiver.url(),
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      `http://2130706433:${receiver.port}/`,
      "http://169.254.169.254/",
    ]) {
      const response = await client.post("/api/webhooks", { url, events: ["deploy.succeeded"] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error).toMatchObject({
        code: "webhook_private_address",
        fields: { url: expect.stringMatching(/private, loopback or reserved/) },
      });
    }
    expect((await client.get("/api/webhooks")).json().webhooks).toEqual([]);
  });

  it("are refused when sent, when the name has moved to one since (DNS rebinding)", async () => {
    dnsServer.zone.set("rebind.example", { a: ["93.184.215.14"] });
    const { client } = await signedInClient(server);
    const hook = await createWebhook(client, `http://rebind.example:${receiver.port}/`);
    dnsServer.zone.set("rebind.example", { a: ["127.0.0.1"] });
    await createSiteWith(client, htmlFile());

    const now = new Date();
    expect(await deliverDueWebhooks(server.ctx, createDnsLookup([dnsServer.address]), now)).toBe(1);
    expect(receiver.received).toHaveLength(0);
    const [row] = await server.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, hook.id));
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status_code: null,
      last_error: expect.stringMatching(/private, loopback or reserved/),
    });
  });
});
