// SIGTERM under load: Berth stops accepting connections, answers in full every request it had
// accepted (a slow upload included), writes the last visits and exits 0. Keep-alive clients
// fetch a site from the edge and call the API back to back while the upload trickles in.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { getWithHost, startBerth, type Berth } from "./support/berth";
import { pageForm, signUpByApi } from "./support/apiAccount";
import { BROWSER_UA, Load, failed, slowUpload, type Outcome } from "./support/load";

/** How long Berth may take from SIGTERM to its exit here: the upload's last seconds and the last writes. */
const EXIT_BOUND_MS = 10_000;

describe("graceful shutdown under load", () => {
  let berth: Berth | undefined;
  let dataDir: string | undefined;

  afterAll(async () => {
    await berth?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A confirmed account with one published site. */
  async function publishSite(node: Berth, text: string): Promise<{ cookie: string; site: { id: string; url: string }; host: string }> {
    const cookie = await signUpByApi(node, `shutdown-${Date.now()}@example.com`, "shutdown test password");
    const api = (p: string, body: FormData | object) =>
      fetch(`http://127.0.0.1:${node.port}${p}`, {
        method: "POST",
        headers: { cookie, origin: node.url, ...(body instanceof FormData ? {} : { "content-type": "application/json" }) },
        body: body instanceof FormData ? body : JSON.stringify(body),
      });
    const { subdomain } = (await (await api("/api/subdomains/reserve", {})).json()) as { subdomain: string };
    const created = await api("/api/sites", pageForm(`<h1>${text}</h1>`, { name: "Shutdown", subdomain }));
    expect(created.status).toBe(201);
    const site = (await created.json()) as { id: string; url: string };
    return { cookie, site, host: new URL(site.url).host };
  }

  /** The site's page views over the last 24 hours, as the API reports them once rolled up (every 10 s). */
  async function viewsAfterRollUp(node: Berth, cookie: string, siteId: string, expected: number): Promise<number> {
    const read = async () => {
      const answer = await fetch(`http://127.0.0.1:${node.port}/api/sites/${siteId}/analytics?range=24h`, { headers: { cookie, origin: node.url } });
      return ((await answer.json()) as { totals: { views: number } }).totals.views;
    };
    let seen = await read();
    for (const deadline = Date.now() + 30_000; seen < expected && Date.now() < deadline; seen = await read()) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return seen;
  }

  it("answers every accepted request, finishes the upload in flight, writes the last visits and exits 0", async () => {
    const first = await startBerth({ BERTH_LOG_LEVEL: "warn" });
    berth = first;
    dataDir = first.dataDir;
    const { cookie, site, host } = await publishSite(first, "version one");

    const load = new Load();
    for (let i = 0; i < 4; i++) {
      load.add(`edge ${i}`, () => ({ port: first.port, path: "/", headers: { host, "user-agent": BROWSER_UA }, expect: /version (one|two)/ }));
    }
    for (let i = 0; i < 2; i++) {
      load.add(`api ${i}`, () => ({ port: first.port, path: "/api/sites", headers: { cookie, origin: first.url }, expect: site.id }));
    }
    await load.untilAnswered(200);

    // About 3 s of body in all; the signal comes 1 s in.
    const upload = slowUpload(
      first.port,
      `/api/sites/${site.id}/files`,
      { cookie, origin: first.url },
      `<h1>version two</h1>${"<p>slow upload</p>\n".repeat(10_000)}`,
      { chunks: 15, intervalMs: 200 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signalAt = Date.now();
    first.process.child.kill("SIGTERM");
    const exitCode = await Promise.race([first.process.exited, new Promise((resolve) => setTimeout(resolve, EXIT_BOUND_MS, "still running"))]);
    const exitedAfterMs = Date.now() - signalAt;
    await load.stop();
    const uploaded = await upload.done;

    const before = load.outcomes.filter((o) => o.sentAt < signalAt);
    const after = load.outcomes.filter((o) => o.sentAt >= signalAt);
    const describeOutcomes = (outcomes: Outcome[]) => JSON.stringify(outcomes.slice(0, 5));
    console.log(
      `shutdown: ${load.outcomes.length} requests (${before.length} sent before SIGTERM, ${after.length} after: ` +
        `${after.filter((o) => o.status === 200).length} answered, ${after.filter((o) => o.error === "ECONNREFUSED").length} refused, ` +
        `${after.filter((o) => o.error !== undefined && o.error !== "ECONNREFUSED").length} reset before being accepted); ` +
        `failures before SIGTERM: ${before.filter(failed).length}; upload ${uploaded.status ?? uploaded.error}; exit ${String(exitCode)} after ${exitedAfterMs} ms`,
    );
    expect(exitCode).toBe(0);
    expect(exitedAfterMs).toBeLessThan(EXIT_BOUND_MS);
    expect(before.length).toBeGreaterThan(200);
    // Sent before the signal: every one answered in full.
    expect(before.filter(failed), describeOutcomes(before.filter(failed))).toEqual([]);
    // Sent after it: answered in full, or never let in; never a 5xx or a cut-off answer.
    const badAfter = after.filter((o) => (o.status !== undefined && failed(o)) || (o.error !== undefined && !neverTaken(o)));
    expect(badAfter, describeOutcomes(badAfter)).toEqual([]);
    // The upload that was still arriving when the signal came was published.
    expect(uploaded.status, uploaded.body || uploaded.error).toBe(201);

    // Started again on the same data directory: the upload is live, and every page view answered
    // before the exit was written.
    const views = load.outcomes.filter((o) => o.client.startsWith("edge") && o.status === 200).length;
    const second = await startBerth({ BERTH_LOG_LEVEL: "warn" }, { dataDir });
    berth = second;
    const siteHost = host.replace(`:${first.port}`, `:${second.port}`);
    expect((await getWithHost(second.port, siteHost)).body).toContain("version two");
    const seen = await viewsAfterRollUp(second, cookie, site.id, views);
    console.log(`shutdown: ${views} page views answered, ${seen} counted after the restart`);
    expect(seen).toBe(views);
  }, 120_000);

  it("cuts off an upload still arriving after BERTH_SHUTDOWN_TIMEOUT_SECONDS, and still writes the last visits and exits 0", async () => {
    await berth?.stop();
    const first = await startBerth({ BERTH_LOG_LEVEL: "warn", BERTH_SHUTDOWN_TIMEOUT_SECONDS: "2" });
    berth = first;
    dataDir = first.dataDir;
    const { cookie, site, host } = await publishSite(first, "version one");
    const load = new Load();
    load.add("edge", () => ({ port: first.port, path: "/", headers: { host, "user-agent": BROWSER_UA }, expect: "version one" }));
    await load.untilAnswered(50);
    // 30 s of body: far past the limit.
    const upload = slowUpload(
      first.port,
      `/api/sites/${site.id}/files`,
      { cookie, origin: first.url },
      `<h1>version two</h1>${"<p>x</p>\n".repeat(30_000)}`,
      {
        chunks: 60,
        intervalMs: 500,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signalAt = Date.now();
    first.process.child.kill("SIGTERM");
    const exitCode = await first.process.exited;
    const exitedAfterMs = Date.now() - signalAt;
    await load.stop();
    const uploaded = await upload.done;
    console.log(`shutdown with a 2 s limit: exit ${String(exitCode)} after ${exitedAfterMs} ms; upload ${uploaded.status ?? uploaded.error}`);
    expect(exitCode).toBe(0);
    // The limit, the one second an idle connection gets, and the last writes.
    expect(exitedAfterMs).toBeGreaterThanOrEqual(2000);
    expect(exitedAfterMs).toBeLessThan(6000);
    expect(uploaded.status).toBeUndefined();
    expect(first.process.output()).toContain("BERTH_SHUTDOWN_TIMEOUT_SECONDS");

    const views = load.outcomes.filter((o) => o.status === 200).length;
    const second = await startBerth({ BERTH_LOG_LEVEL: "warn" }, { dataDir });
    berth = second;
    // The cut-off upload published nothing.
    expect((await getWithHost(second.port, host.replace(`:${first.port}`, `:${second.port}`))).body).toContain("version one");
    expect(await viewsAfterRollUp(second, cookie, site.id, views)).toBe(views);
  }, 120_000);
});

/**
 * A request sent after SIGTERM that Berth never took: its connection refused once the port
 * closed, or reset by the kernel with nothing answered because it was still waiting in the
 * listening socket's queue when the port closed (Berth never accepted it: clients see the same as
 * a refusal, and a balancer with a drain time sends none).
 */
function neverTaken(outcome: Outcome): boolean {
  return outcome.error === "ECONNREFUSED" || (!outcome.reused && outcome.error === "ECONNRESET");
}
