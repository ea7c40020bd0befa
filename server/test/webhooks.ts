// Webhooks for tests: a real receiver on loopback (node:http) that records what it is sent and
// answers what the test asks, and endpoints made through the real API by a signed-in owner.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { CreatedWebhookResponse, WebhookEvent } from "../../common/webhooks";
import type { TestClient } from "./support";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  url: string;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses to answer, in order; once used up, `status`. */
  readonly answers: number[] = [];
  status = 200;

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), url: request.url ?? "" });
        response.writeHead(receiver.answers.shift() ?? receiver.status, { "content-type": "text/plain" }).end("ok");
      });
    });
    const receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** A URL of this receiver on 127.0.0.1. */
  url(path = "/hooks/berth"): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const ALL_EVENTS: WebhookEvent[] = ["deploy.succeeded", "deploy.failed", "deploy.rolled_back", "site.deleted"];

/** A new webhook of `owner`'s: its id and signing secret. */
export async function createWebhook(
  owner: TestClient,
  url: string,
  options: { siteId?: string | null; events?: WebhookEvent[] } = {},
): Promise<{ id: string; secret: string }> {
  const response = await owner.post("/api/webhooks", { url, siteId: options.siteId ?? null, events: options.events ?? ALL_EVENTS });
  if (response.statusCode !== 201) throw new Error(`webhook failed: ${response.statusCode} ${response.body}`);
  const { webhook, secret } = response.json<CreatedWebhookResponse>();
  return { id: webhook.id, secret };
}
