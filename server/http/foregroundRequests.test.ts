import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { countForegroundRequests, ForegroundRequests } from "./foregroundRequests";

/** Whether idle() resolved within `ms`. */
async function idleWithin(foreground: ForegroundRequests, ms: number, maxWaitMs = 10_000): Promise<boolean> {
  let resolved = false;
  const waiting = foreground.idle(maxWaitMs).then(() => (resolved = true));
  await new Promise((r) => setTimeout(r, ms));
  void waiting;
  return resolved;
}

describe("ForegroundRequests", () => {
  it("lets background work go at once when no request is under way, and waits while one is", async () => {
    const foreground = new ForegroundRequests(true);
    expect(await idleWithin(foreground, 5)).toBe(true);
    const end = foreground.begin();
    const waited = foreground.idle(10_000);
    expect(await idleWithin(foreground, 30)).toBe(false);
    end();
    await waited;
    expect(await idleWithin(foreground, 5)).toBe(true);
  });

  it("waits for the last of several requests, and counts an end called twice once", async () => {
    const foreground = new ForegroundRequests(true);
    const first = foreground.begin();
    const second = foreground.begin();
    first();
    first();
    expect(await idleWithin(foreground, 30)).toBe(false);
    second();
    expect(await idleWithin(foreground, 5)).toBe(true);
  });

  it("goes anyway after the longest wait, so steady traffic does not stop background work", async () => {
    const foreground = new ForegroundRequests(true);
    foreground.begin();
    const started = performance.now();
    await foreground.idle(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("never waits when switched off (PostgreSQL runs statements side by side)", async () => {
    const foreground = new ForegroundRequests(false);
    foreground.begin();
    expect(await idleWithin(foreground, 5)).toBe(true);
  });

  it("counts an app's requests that change something until their answer, and not its reads", async () => {
    const foreground = new ForegroundRequests(true);
    const app = Fastify();
    countForegroundRequests(app, foreground);
    const seen: Record<string, boolean> = {};
    const route = async (request: { method: string }) => {
      seen[request.method] = await idleWithin(foreground, 20);
      return { ok: true };
    };
    app.get("/x", route);
    app.post("/x", route);
    await app.ready();
    expect((await app.inject({ method: "POST", url: "/x" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/x" })).statusCode).toBe(200);
    // Inside the POST background work waited; inside the GET it did not; after both, nothing is counted.
    expect(seen).toEqual({ POST: false, GET: true });
    expect(await idleWithin(foreground, 5)).toBe(true);
    await app.close();
  });
});
