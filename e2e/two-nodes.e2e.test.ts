// Two Berth processes on different ports sharing one PostgreSQL database and one S3 bucket
// (s3rver): what is changed through node A is served by node B within a second (cache drops go
// through LISTEN/NOTIFY), and work both nodes' workers could do happens once.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithHost, startBerth, type Berth } from "./support/berth";
import { waitFor } from "./support/pages";
import { setPlan } from "./support/berth";
import { createScratchDatabase, scratchName, type ScratchDatabase } from "../server/test/scratchDatabase";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const BUCKET = "berth-two-nodes";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
/** What the issue allows between a change on A and B serving it. */
const PROPAGATION_MS = 1000;

describe("two nodes, one state", () => {
  let scratch: ScratchDatabase | undefined;
  let s3: S3rver;
  let s3Dir: string;
  let a: Berth;
  let b: Berth;
  let cookie: string;
  /** The nodes' shared database. */
  let dbUrl: string;
  const email = `nodes-${Date.now()}@example.com`;
  const seen: Record<string, number> = {};

  beforeAll(async () => {
    scratch = await createScratchDatabase(scratchName("berth_e2e_nodes"));
    dbUrl = scratch.url;
    s3Dir = mkdtempSync(path.join(os.tmpdir(), "berth-nodes-s3-"));
    s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir });
    const { port } = await s3.run();
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    client.destroy();
    const shared = {
      DATABASE_URL: dbUrl,
      BERTH_S3_BUCKET: BUCKET,
      BERTH_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      // One secret for the cluster: sessions and signed links work on every node.
      BERTH_SECRET: "two-nodes-test-secret-0123456789abcdef",
      BERTH_LOG_LEVEL: "warn",
    };
    // A first, so it runs the migrations alone; then B.
    a = await startBerth(shared);
    b = await startBerth(shared);
    cookie = await signUp(a);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await s3?.close();
    if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
    await scratch?.drop();
    console.log(`node B saw node A's changes after (ms): ${JSON.stringify(seen)}`);
  });

  async function signUp(node: Berth): Promise<string> {
    const post = (p: string, body: unknown) =>
      fetch(`http://127.0.0.1:${node.port}${p}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: node.url },
        body: JSON.stringify(body),
      });
    expect((await post("/api/auth/sign-up/email", { email, password: "two nodes password", name: "Nodes" })).ok).toBe(true);
    const link = await waitFor(() => node.outbox.lastLink(email, /Confirm your e-mail/));
    await fetch(link, { redirect: "manual" });
    const signedIn = await post("/api/auth/sign-in/email", { email, password: "two nodes password" });
    return signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("berth.session_token="))!
      .split(";")[0]!;
  }

  /** An API call through a node, as the signed-in user. */
  async function api(node: Berth, method: string, p: string, body?: FormData | object): Promise<Response> {
    const form = body instanceof FormData;
    return fetch(`http://127.0.0.1:${node.port}${p}`, {
      method,
      headers: { cookie, origin: node.url, ...(body && !form ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: form ? body : JSON.stringify(body) } : {}),
    });
  }

  /** An index.html upload; fields go before the file, as the server reads them in order. */
  const page = (text: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("file", new Blob([`<h1>${text}</h1>`], { type: "text/html" }), "index.html");
    return form;
  };

  /** Polls node B until `check` holds; records and returns the milliseconds it took. */
  async function untilB(name: string, host: string, check: (r: { status: number; body: string }) => boolean): Promise<number> {
    const started = Date.now();
    for (;;) {
      const answer = await getWithHost(b.port, host.replace(`:${a.port}`, `:${b.port}`), "/");
      if (check(answer)) return (seen[name] = Date.now() - started);
      if (Date.now() - started > 5000) throw new Error(`node B still answers ${answer.status} ${answer.body.slice(0, 80)} for ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("serves on node B, within a second, a deploy, a rollback, a password, a domain removal and a delete made on node A", async () => {
    const { subdomain } = (await (await api(a, "POST", "/api/subdomains/reserve", {})).json()) as { subdomain: string };
    const create = page("version one", { name: "Shared site", subdomain });
    const created = await api(a, "POST", "/api/sites", create);
    expect(created.status).toBe(201);
    const site = (await created.json()) as { id: string; url: string };
    const host = new URL(site.url).host;

    // B serves it, and now holds it in its caches.
    await untilB("first deploy", host, (r) => r.body.includes("version one"));
    expect((await getWithHost(b.port, host.replace(`:${a.port}`, `:${b.port}`))).body).toContain("version one");

    expect((await api(a, "POST", `/api/sites/${site.id}/files`, page("version two"))).status).toBe(201);
    expect(await untilB("deploy", host, (r) => r.body.includes("version two"))).toBeLessThan(PROPAGATION_MS);

    const deployments = (
      (await (await api(a, "GET", `/api/sites/${site.id}/deployments`)).json()) as { deployments: Array<{ id: string; version: number }> }
    ).deployments;
    const first = deployments.find((d) => d.version === 1)!;
    expect((await api(a, "POST", `/api/sites/${site.id}/deployments/${first.id}/rollback`, {})).status).toBe(200);
    expect(await untilB("rollback", host, (r) => r.body.includes("version one"))).toBeLessThan(PROPAGATION_MS);

    expect(await setPlan(a, email, "pro")).toBe(0);
    // A custom domain as the worker leaves it once DNS checks out (active, verified), written
    // straight into the shared database so no DNS is involved; both nodes pick it up with the
    // site's next change, the password below.
    const custom = "www.two-nodes.example";
    const nodeDb = new pg.Client({ connectionString: dbUrl });
    await nodeDb.connect();
    const domainId = (
      await nodeDb.query<{ id: string }>(
        `insert into domains (user_id, site_id, hostname, verification_token, status, verified_at, activated_at)
         select user_id, id, $2, 'token', 'active', now(), now() from sites where id = $1 returning id`,
        [site.id, custom],
      )
    ).rows[0]!.id;
    await nodeDb.end();

    expect((await api(a, "PUT", `/api/sites/${site.id}/password`, { password: "open sesame" })).status).toBe(200);
    expect(await untilB("password", host, (r) => r.status === 401)).toBeLessThan(PROPAGATION_MS);
    expect((await api(a, "DELETE", `/api/sites/${site.id}/password`)).status).toBe(200);
    expect(await untilB("password removed", host, (r) => r.status === 200)).toBeLessThan(PROPAGATION_MS);

    await untilB("custom domain served", custom, (r) => r.status === 200 && r.body.includes("version one"));
    expect((await api(a, "DELETE", `/api/domains/${domainId}`)).status).toBe(204);
    expect(await untilB("domain removed", custom, (r) => !r.body.includes("version one"))).toBeLessThan(PROPAGATION_MS);

    expect((await api(a, "DELETE", `/api/sites/${site.id}`)).status).toBe(200);
    expect(await untilB("delete", host, (r) => r.status === 404)).toBeLessThan(PROPAGATION_MS);
  });

  it("counts visits served by both nodes once each, with both workers rolling up", async () => {
    const { subdomain } = (await (await api(b, "POST", "/api/subdomains/reserve", {})).json()) as { subdomain: string };
    const create = page("counted", { name: "Counted site", subdomain });
    const site = (await (await api(b, "POST", "/api/sites", create)).json()) as { id: string; url: string };
    const host = new URL(site.url).hostname;
    // Node A learns of B's new site within milliseconds; until then it answers for an unknown
    // host. A crawler (not a view) waits for that, so each of the 12 visits below is the site's.
    for (const node of [a, b]) {
      const deadline = Date.now() + 5000;
      while (!(await viewAs(node, host, "curl/8.5.0")).body.includes("counted")) {
        if (Date.now() > deadline) throw new Error(`node on port ${node.port} does not serve ${host}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const answers = await Promise.all([...Array<Berth>(7).fill(a), ...Array<Berth>(5).fill(b)].map((node) => viewAs(node, host)));
    expect(answers.every((r) => r.status === 200 && r.body.includes("counted"))).toBe(true);
    const viewsOn = async (node: Berth) =>
      ((await (await api(node, "GET", `/api/sites/${site.id}/analytics?range=24h`)).json()) as { totals: { views: number } }).totals.views;
    const deadline = Date.now() + 30_000;
    let views = await viewsOn(a);
    while (views < 12 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      views = await viewsOn(a);
    }
    // Give a doubled roll-up the time to show, then check again.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect([views, await viewsOn(b)]).toEqual([12, 12]);
  }, 60_000);
});

/** GET / on a site through a node, as a browser unless told otherwise. */
async function viewAs(node: Berth, hostname: string, userAgent = BROWSER): Promise<{ status: number; body: string }> {
  const http = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: node.port, path: "/", headers: { host: `${hostname}:${node.port}`, "user-agent": userAgent } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
