// A rolling restart of two nodes (one PostgreSQL database, one S3 bucket on s3rver) behind a load
// balancer that checks /api/health, under steady load: node A is stopped with SIGTERM, started
// again and waited for, then node B. Each node drains first (BERTH_SHUTDOWN_DRAIN_SECONDS): its
// health check answers 503 while it still serves, so the balancer stops sending it requests
// before its port closes. Every request through the balancer is answered, none fails.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startBerth, type Berth } from "./support/berth";
import { pageForm, signUpByApi } from "./support/apiAccount";
import { startBalancer, type Balancer } from "./support/balancer";
import { BROWSER_UA, Load, failed, type Outcome } from "./support/load";
import { waitFor } from "./support/pages";
import { createScratchDatabase, scratchName, type ScratchDatabase } from "../server/test/scratchDatabase";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const BUCKET = "berth-rolling";
/** The balancer's health-check interval; the drain must outlast it with room to spare. */
const CHECK_EVERY_MS = 250;
const DRAIN_SECONDS = 2;

describe("rolling restart of two nodes behind a load balancer", () => {
  let scratch: ScratchDatabase | undefined;
  let s3: S3rver | undefined;
  let s3Dir: string | undefined;
  let balancer: Balancer | undefined;
  const nodes: Array<Berth | undefined> = [undefined, undefined];
  let shared: Record<string, string>;
  let ports: number[];
  let lbUrl: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase(scratchName("berth_e2e_rolling"));
    s3Dir = mkdtempSync(path.join(os.tmpdir(), "berth-rolling-s3-"));
    s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir });
    const { port: s3Port } = await s3.run();
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${s3Port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    client.destroy();
    ports = [await freePort(), await freePort()];
    balancer = await startBalancer(ports, { checkEveryMs: CHECK_EVERY_MS });
    lbUrl = `http://localhost:${balancer.port}`;
    shared = {
      DATABASE_URL: scratch.url,
      BERTH_S3_BUCKET: BUCKET,
      BERTH_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      BERTH_SECRET: "rolling-restart-test-secret-0123456789abcdef",
      BERTH_APP_URL: lbUrl,
      BERTH_TRUST_PROXY: "true",
      BERTH_SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      BERTH_LOG_LEVEL: "warn",
    };
    // A first, so it runs the migrations alone; then B.
    nodes[0] = await startBerth(shared, { port: ports[0] });
    nodes[1] = await startBerth(shared, { port: ports[1] });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map(async (node) => node?.stop()));
    await balancer?.close();
    await s3?.close();
    if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
    await scratch?.drop();
  });

  it("answers every request while node A, then node B, restart", async () => {
    const a = nodes[0]!;
    const lb = balancer!;
    const email = `rolling-${Date.now()}@example.com`;
    const cookie = await signUpByApi({ port: a.port, url: lbUrl, outbox: a.outbox }, email, "rolling restart password");
    const api = (method: string, p: string, body?: FormData | object) =>
      fetch(`http://127.0.0.1:${lb.port}${p}`, {
        method,
        headers: { cookie, origin: lbUrl, ...(body && !(body instanceof FormData) ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
      });
    const { subdomain } = (await (await api("POST", "/api/subdomains/reserve", {})).json()) as { subdomain: string };
    const created = await api("POST", "/api/sites", pageForm("<h1>rolling</h1>", { name: "Rolling", subdomain }));
    expect(created.status).toBe(201);
    const site = (await created.json()) as { id: string; url: string };
    const host = new URL(site.url).host;

    const load = new Load();
    for (let i = 0; i < 4; i++) {
      load.add(`edge ${i}`, () => ({ port: lb.port, path: "/", headers: { host, "user-agent": BROWSER_UA }, expect: "rolling" }));
    }
    for (let i = 0; i < 2; i++) {
      load.add(`api ${i}`, () => ({ port: lb.port, path: `/api/sites/${site.id}`, headers: { cookie, origin: lbUrl }, expect: site.id }));
    }
    // Deploys through the balancer meanwhile: writes land on whichever node is in.
    let deploying = true;
    const deploys: Outcome[] = [];
    const deployLoop = (async () => {
      while (deploying) {
        const sentAt = Date.now();
        const answer = await api("POST", `/api/sites/${site.id}/files`, pageForm(`<h1>rolling ${sentAt}</h1>`)).then(
          async (r) => ({ status: r.status, bodyOk: r.status === 201, text: r.status === 201 ? "" : await r.text() }),
          (error: Error) => ({ status: undefined, bodyOk: false, text: error.message }),
        );
        deploys.push({
          client: "deploy",
          sentAt,
          reused: false,
          ...(answer.status === undefined ? { error: answer.text } : { status: answer.status }),
          bodyOk: answer.bodyOk,
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    await load.untilAnswered(200);

    const timeline: string[] = [];
    const started = Date.now();
    for (const index of [0, 1]) {
      const node = nodes[index]!;
      const name = index === 0 ? "A" : "B";
      const before = lb.backends[index]!.answered;
      const signalAt = Date.now();
      node.process.child.kill("SIGTERM");
      const exitCode = await node.process.exited;
      timeline.push(`${name} exited ${String(exitCode)} after ${Date.now() - signalAt} ms`);
      expect(exitCode).toBe(0);
      expect(lb.backends[index]!.healthy).toBe(false);
      nodes[index] = await startBerth(shared, { port: ports[index], dataDir: node.dataDir });
      // Back in the balancer's rotation and serving before the other node goes.
      await waitFor(() => {
        if (lb.backends[index]!.answered < before + 50) throw new Error(`node ${name} not serving again yet`);
      }, 30_000);
      timeline.push(`${name} serving again ${Date.now() - signalAt} ms after its SIGTERM`);
    }
    await load.untilAnswered(100);
    deploying = false;
    await deployLoop;
    await load.stop();

    const outcomes = [...load.outcomes, ...deploys];
    const failures = outcomes.filter(failed);
    console.log(
      `rolling restart: ${outcomes.length} requests in ${Date.now() - started} ms of restarts and more (${deploys.length} deploys), ` +
        `${failures.length} failed; answered by A ${lb.backends[0]!.answered}, by B ${lb.backends[1]!.answered}; ` +
        `tried again on the other node: ${lb.retried}; ${timeline.join("; ")}; ` +
        `health seen: ${lb.backends.map((b, i) => `${"AB"[i]} ${b.seen.map((s) => s.state).join(" → ")}`).join(", ")}`,
    );
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    expect(deploys.length).toBeGreaterThan(5);
    // Each node said it was draining before its port closed (the balancer starts before the
    // nodes, so it first saw them down), and for long enough that the balancer never sent a
    // request to a closed port.
    for (const backend of lb.backends) {
      expect(backend.seen.map((s) => s.state)).toEqual(["down", "ok", "draining", "down", "ok"]);
    }
    expect(lb.retried).toBe(0);
  }, 180_000);
});
