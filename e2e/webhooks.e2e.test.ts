// Webhooks in the browser: added on /dashboard/integrations with the secret shown once, a test
// event sent by the real worker to a receiver on loopback (BERTH_WEBHOOK_ALLOW_PRIVATE), signed
// with that secret, its delivery shown in the panel, and the webhook deleted.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_TEXT } from "../common/webhooks";
import { verifyWebhookSignature } from "../server/webhooks/signature";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser, waitFor } from "./support/pages";
import { shoot } from "./support/shots";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe("webhooks on the Integrations page", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: http.Server;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    [berth, browser] = await Promise.all([startBerth({ BERTH_WEBHOOK_ALLOW_PRIVATE: "true" }), launchBrowser()]);
    context = await browser.newContext();
    page = await context.newPage();
    await signInNewUser(page, berth);
    await createSiteInWizard(page, berth, "Portfolio", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Portfolio</title><h1>Portfolio</h1>"),
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await berth?.stop();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("a webhook added in the dashboard receives a signed test event, shown in its deliveries", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/berth`;
    await page.goto(`${berth.url}/dashboard/integrations`);
    await page.getByRole("heading", { name: "No webhooks yet" }).waitFor();

    await page.getByRole("button", { name: "Add webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "Add webhook" });
    // Nothing ticked: the form says so under the events, and sends nothing.
    for (const box of await dialog.getByRole("checkbox").all()) await box.uncheck();
    await dialog.getByLabel("Payload URL").fill(url);
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    await dialog.getByText(WEBHOOK_TEXT.eventsRequired).waitFor();
    await dialog.getByRole("checkbox", { name: /Deploy succeeded/ }).check();
    await shoot(page, "webhooks-add-dialog", { fullPage: false });
    await dialog.getByRole("button", { name: "Add webhook" }).click();

    const created = page.getByRole("dialog", { name: "Webhook added" });
    await created.getByText(WEBHOOK_TEXT.copyOnce).waitFor();
    const secret = await created.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await created.getByRole("button", { name: "Done" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });

    const item = page.getByRole("listitem", { name: url, exact: true });
    await item.getByText("All sites", { exact: true }).waitFor();
    await item.getByText("Events: Deploy succeeded", { exact: true }).waitFor();
    expect(await item.textContent()).not.toContain(secret);

    await item.getByRole("button", { name: "Send test" }).click();
    const ping = await waitFor(() => {
      if (received.length === 0) throw new Error("the receiver has had no request yet");
      return received[0];
    }, 15_000);
    expect(ping!.headers["berth-event"]).toBe("ping");
    expect(verifyWebhookSignature(secret, ping!.body, String(ping!.headers["berth-signature"]))).toBe(true);

    // The panel opened by Send test shows the delivery once the worker has sent it.
    const deliveries = page.getByRole("list", { name: `Deliveries to ${url}` });
    await deliveries.getByText("Delivered", { exact: true }).waitFor({ timeout: 15_000 });
    await deliveries.getByText(/^HTTP 204 · \d+ ms/).waitFor();
    await deliveries.getByText(String(ping!.headers["berth-delivery"])).waitFor();
    await shoot(page, "webhooks-delivered");

    await item.getByRole("button", { name: `Delete the webhook to ${url}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this webhook?" });
    await confirm.getByRole("button", { name: "Delete webhook" }).click();
    await confirm.waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "No webhooks yet" }).waitFor();
  });
});
