import { describe, expect, it } from "vitest";
import type { WebhookDeliveryResponse, WebhookResponse } from "../../../common/webhooks";
import { ALL_SITES, deliveryOutcome, deliveryStatus, eventLabel, NewWebhookForm, nextTryLabel, webhookScopeLabel, webhooksForSite } from "./webhooks";

const NOW = new Date("2030-05-01T12:00:00Z");

function delivery(overrides: Partial<WebhookDeliveryResponse> = {}): WebhookDeliveryResponse {
  return {
    id: "d1",
    type: "deploy.succeeded",
    status: "pending",
    attempts: 0,
    next_attempt_at: null,
    last_status_code: null,
    last_response_ms: null,
    last_error: null,
    created_at: "2030-05-01T11:59:00Z",
    delivered_at: null,
    ...overrides,
  };
}

function webhook(site: WebhookResponse["site"], id = "w1"): WebhookResponse {
  return {
    id,
    url: "https://example.com/h",
    site,
    events: ["deploy.succeeded"],
    enabled: true,
    created_at: "2030-05-01T10:00:00Z",
    last_delivery: null,
  };
}

describe("how a delivery reads", () => {
  it("names its status", () => {
    expect(deliveryStatus(delivery())).toEqual({ label: "Queued", tone: "muted" });
    expect(deliveryStatus(delivery({ attempts: 2 }))).toEqual({ label: "Retrying", tone: "warning" });
    expect(deliveryStatus(delivery({ status: "delivered", attempts: 1 }))).toEqual({ label: "Delivered", tone: "success" });
    expect(deliveryStatus(delivery({ status: "failed", attempts: 12 }))).toEqual({ label: "Failed", tone: "danger" });
  });

  it("gives the last answer's code and time, or why none came", () => {
    expect(deliveryOutcome(delivery())).toBe("Not sent yet");
    expect(deliveryOutcome(delivery({ last_status_code: 200, last_response_ms: 84 }))).toBe("HTTP 200 · 84 ms");
    expect(deliveryOutcome(delivery({ last_error: "Connection refused", last_response_ms: 3 }))).toBe("Connection refused · 3 ms");
  });

  it("says when a failed delivery is tried next", () => {
    expect(nextTryLabel(delivery(), NOW)).toBeNull();
    expect(nextTryLabel(delivery({ attempts: 2, next_attempt_at: "2030-05-01T12:02:00Z" }), NOW)).toBe("Next try in 2 minutes");
    expect(nextTryLabel(delivery({ attempts: 1, next_attempt_at: "2030-05-01T12:00:20Z" }), NOW)).toBe("Next try in a few seconds");
    expect(nextTryLabel(delivery({ attempts: 1, next_attempt_at: "2030-05-01T11:59:00Z" }), NOW)).toBe("Trying again now");
  });

  it("names events, and a ping as a test", () => {
    expect(eventLabel("deploy.rolled_back")).toBe("Rolled back");
    expect(eventLabel("ping")).toBe("Test");
  });
});

describe("webhooks of a site", () => {
  const site = { id: "s1", name: "Portfolio", subdomain: "abcde" };
  it("are its own and those for all sites", () => {
    const hooks = [webhook(null, "all"), webhook(site, "own"), webhook({ ...site, id: "s2" }, "other")];
    expect(webhooksForSite(hooks, "s1").map((h) => h.id)).toEqual(["all", "own"]);
    expect(webhookScopeLabel(hooks[0]!)).toBe("All sites");
    expect(webhookScopeLabel(hooks[1]!)).toBe("Portfolio");
  });
});

describe("the add-webhook form", () => {
  it("turns its fields into the server's request", () => {
    const parsed = NewWebhookForm.safeParse({ url: " https://example.com/h ", scope: ALL_SITES, events: ["site.deleted", "deploy.failed"] });
    expect(parsed.success && parsed.data).toEqual({ url: "https://example.com/h", siteId: null, events: ["deploy.failed", "site.deleted"] });
    const one = NewWebhookForm.safeParse({ url: "https://example.com/h", scope: "s1", events: ["deploy.failed"] });
    expect(one.success && one.data.siteId).toBe("s1");
  });

  it("puts the server's messages under the fields", () => {
    const parsed = NewWebhookForm.safeParse({ url: "ftp://x", scope: ALL_SITES, events: [] });
    expect(parsed.success).toBe(false);
    const fields = Object.fromEntries(parsed.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(fields).toEqual({ url: "The URL must start with https:// or http://", events: "Choose at least one event" });
  });
});
