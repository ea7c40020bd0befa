// A client that drops its connection halfway through a body, on every route that reads one as a
// stream. The route must end (its error is logged, as a body not received in full) and leave no
// temporary file: a reader left waiting for bytes that never come would keep its file open, one
// per dropped upload, which is all an attacker needs to run the server out of descriptors.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeployResponse } from "../../common/deploys";
import type { SiteResponse } from "../../common/sites";
import { digestTarOf, manifestOf, openDeploy, type FileSpec } from "../test/deploys";
import { signedInClient } from "../test/factories";
import { multipartBody, zipOf } from "../test/sites";
import { DRIVERS, getTestServer, TEST_APP_URL, type TestClient, type TestServer } from "../test/support";

const ABORTED = "request body not received in full";

interface Body {
  method: "POST" | "PUT";
  path: string;
  contentType: string;
  bytes: Buffer;
}

describe.each(DRIVERS)("bodies cut off halfway (%s)", (driver) => {
  let server: TestServer;
  let port: number;
  const logged: string[] = [];

  beforeAll(async () => {
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        done();
      },
    });
    server = await getTestServer(driver, { log: pino({ level: "info" }, lines) });
    port = (await server.listen()).port;
  });
  afterAll(() => server.close());

  const temporaries = () =>
    [path.join(server.ctx.env.dataDir, "blobs", "tmp"), path.join(server.ctx.env.dataDir, "tmp")]
      .filter((dir) => existsSync(dir))
      .flatMap((dir) => readdirSync(dir).filter((name) => !name.startsWith("sweep-")));
  const abortedLines = () => logged.filter((line) => line.includes(ABORTED)).length;

  /** Sends the headers and 40 % of the body, gives the server time to start on it, then drops the connection. */
  async function cutOff(client: TestClient, body: Body): Promise<void> {
    const before = abortedLines();
    // Judged by what this request leaves: a failing case before it must not fail it too.
    const earlier = new Set(temporaries());
    const left = () => temporaries().filter((name) => !earlier.has(name));
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const request = http.request({
      host: "127.0.0.1",
      port,
      path: body.path,
      method: body.method,
      headers: {
        host: "localhost:8080",
        origin: TEST_APP_URL,
        cookie,
        "content-type": body.contentType,
        "content-length": String(body.bytes.length),
      },
    });
    const answered = new Promise<number>((resolve) => {
      request.on("response", (response) => resolve(response.statusCode ?? 0));
      request.on("error", () => resolve(0));
    });
    request.write(body.bytes.subarray(0, Math.floor(body.bytes.length * 0.4)));
    const status = await Promise.race([answered, sleep(400, -1)]);
    // An answer before the cut (a refusal) would mean the body was never read: not this test's case.
    expect(status).toBe(-1);
    request.destroy();
    for (let waited = 0; waited < 10_000 && (abortedLines() === before || left().length > 0); waited += 50) await sleep(50);
    expect(abortedLines()).toBe(before + 1);
    expect(left()).toEqual([]);
  }

  const big = () => randomBytes(1536 * 1024);

  async function emptySite(client: TestClient): Promise<SiteResponse> {
    return (await client.post("/api/sites", { name: "Cut off" })).json<SiteResponse>();
  }

  async function openWith(client: TestClient, site: SiteResponse, files: FileSpec[]): Promise<DeployResponse> {
    const opened = await openDeploy(client, site.id, { files: manifestOf(files) });
    expect(opened.statusCode).toBe(201);
    return opened.json<DeployResponse>();
  }

  it("a deploy's file", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const file = { path: "big.bin", content: big() };
    const deploy = await openWith(client, site, [file]);
    const sha = manifestOf([file])[0]!.sha256;
    await cutOff(client, {
      method: "PUT",
      path: `/api/sites/${site.id}/deploys/${deploy.id}/files/${sha}`,
      contentType: "application/octet-stream",
      bytes: file.content,
    });
  });

  it("a deploy's tar of files", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const files = [
      { path: "a.bin", content: big() },
      { path: "b.bin", content: big() },
    ];
    const deploy = await openWith(client, site, files);
    await cutOff(client, {
      method: "POST",
      path: `/api/sites/${site.id}/deploys/${deploy.id}/files`,
      contentType: "application/x-tar",
      bytes: digestTarOf(files),
    });
  });

  it("a deploy's manifest", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const files = Array.from({ length: 2000 }, (_, i) => ({ path: `page-${i}.html`, content: `<p>${i}</p>` }));
    const manifest = Buffer.from(JSON.stringify({ files: manifestOf(files) }));
    await cutOff(client, { method: "POST", path: `/api/sites/${site.id}/deploys`, contentType: "application/json", bytes: manifest });
  });

  it("a deploy as one zip", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const zip = await zipOf([{ name: "index.html", data: big() }]);
    await cutOff(client, { method: "POST", path: `/api/sites/${site.id}/deploys`, contentType: "application/zip", bytes: zip });
  });

  it("a new site's upload", async () => {
    const { client } = await signedInClient(server);
    const reserved = (await client.post("/api/subdomains/reserve", {})).json<{ subdomain: string }>();
    const form = multipartBody(
      { name: "Cut off", subdomain: reserved.subdomain },
      { name: "site.zip", content: await zipOf([{ name: "index.html", data: big() }]), type: "application/zip" },
    );
    await cutOff(client, { method: "POST", path: "/api/sites", contentType: form.contentType, bytes: form.body });
  });

  it("a file added in the file manager", async () => {
    const { client } = await signedInClient(server);
    const site = await emptySite(client);
    const form = multipartBody({}, { name: "big.pdf", content: big(), type: "application/pdf" });
    await cutOff(client, { method: "POST", path: `/api/sites/${site.id}/files`, contentType: form.contentType, bytes: form.body });
  });

  it("a profile picture", async () => {
    const { client } = await signedInClient(server);
    const form = multipartBody({}, { name: "me.png", content: big(), type: "image/png" });
    await cutOff(client, { method: "PUT", path: "/api/me/avatar", contentType: form.contentType, bytes: form.body });
  });
});
