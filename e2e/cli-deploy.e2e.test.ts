// `berth deploy` end to end, with the CLI installed the way a user installs it: the tarball that
// `npm pack ./cli` makes (the build puts it at /cli/berth-cli.tgz on the server), through
// `npm install -g` into an empty prefix. Every byte between the CLI and the server passes a TCP
// proxy that counts what the CLI sends and can stand in for a dropped network.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiTokenResponse } from "../common/apiTokens";
import { DEPLOY_TEXT, type DeployResponse } from "../common/deploys";
import type { SiteListResponse } from "../common/sites";
import { FREE_PLAN } from "../server/plans/builtIn";
import { freePort, startBerth, type Berth } from "./support/berth";
import { waitFor } from "./support/pages";

interface Proxy {
  url: string;
  /** Bytes clients sent through the proxy since the last reset. */
  sent(): number;
  reset(): void;
  close(): Promise<void>;
}

async function countingProxy(target: number): Promise<Proxy> {
  let sent = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.on("data", (chunk: Buffer) => (sent += chunk.length));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    sent: () => sent,
    reset: () => (sent = 0),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** GET with an explicit Host header; the body as the bytes that arrived. */
function getBytes(port: number, host: string, pathname: string): Promise<{ status: number; bytes: Buffer; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: pathname, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes, body: bytes.toString() });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe("berth deploy, installed from npm pack", () => {
  let berth: Berth;
  let proxy: Proxy;
  let token = "";
  const work = mkdtempSync(path.join(os.tmpdir(), "berth-cli-deploy-"));
  const prefix = path.join(work, "prefix");
  const berthBin = path.join(prefix, "bin", "berth");

  function start(args: string[]): { child: ChildProcess; done: Promise<Run> } {
    const child = spawn(berthBin, args, {
      cwd: work,
      // A clean environment: no config file, only what CI would set.
      env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: work, BERTH_SERVER: proxy.url, BERTH_TOKEN: token },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const done = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
    return { child, done };
  }
  const berthCli = (...args: string[]) => start(args).done;

  beforeAll(async () => {
    berth = await startBerth();
    proxy = await countingProxy(berth.port);
    // The tarball the build made with `npm pack ./cli`, installed as a user installs it.
    const install = await new Promise<Run>((resolve) => {
      const child = spawn("npm", ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", `${berth.url}/cli/berth-cli.tgz`], {
        env: { PATH: process.env.PATH ?? "", HOME: work, npm_config_cache: path.join(work, "npm-cache") },
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (code) => resolve({ code, stdout: "", stderr }));
    });
    expect(install.code, install.stderr).toBe(0);

    const dashboard = (pathname: string, body: unknown, cookie = "") =>
      fetch(`${berth.url}${pathname}`, {
        method: "POST",
        headers: { origin: berth.url, "content-type": "application/json", cookie },
        body: JSON.stringify(body),
      });
    const email = `deployer.${Date.now()}@example.com`;
    const password = "a long enough password";
    expect((await dashboard("/api/auth/sign-up/email", { email, password, name: "Deployer" })).status).toBe(200);
    await fetch(await waitFor(() => berth.outbox.lastLink(email, /Confirm your e-mail/)), { redirect: "manual" });
    const signedIn = await dashboard("/api/auth/sign-in/email", { email, password });
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const created = await dashboard("/api/tokens", { name: "e2e", permission: "full" }, cookie);
    expect(created.status).toBe(201);
    token = ((await created.json()) as CreatedApiTokenResponse).secret;
  }, 180_000);
  afterAll(async () => {
    await proxy?.close();
    await berth?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const host = (subdomain: string) => `${subdomain}.localhost`;
  const served = (subdomain: string, pathname: string) => getBytes(berth.port, host(subdomain), pathname);

  /** Writes `files` under `dir`; returns them. */
  function writeFolder(dir: string, files: { path: string; bytes: Buffer }[]) {
    for (const file of files) {
      mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
      writeFileSync(path.join(dir, file.path), file.bytes);
    }
    return files;
  }

  let subdomain = "";
  const site = path.join(work, "site");
  let files: { path: string; bytes: Buffer }[] = [];

  // A thousand files and HTTP requests for each of them, on a shared machine.
  it("deploys a 1,000-file folder that is then served byte for byte", { timeout: 180_000 }, async () => {
    files = writeFolder(site, [
      { path: "index.html", bytes: Buffer.from("<!doctype html><title>One</title><h1>version one</h1>") },
      ...Array.from({ length: 999 }, (_, i) => ({ path: `assets/part-${i % 10}/file-${i}.txt`, bytes: randomBytes(500 + (i % 300)) })),
    ]);
    const run = await berthCli("deploy", site, "--create", "Thousand", "--json");
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { site: string; version: number; url: string; files: number; files_uploaded: number };
    expect(result).toMatchObject({ version: 1, files: 1000, files_uploaded: 1000 });
    subdomain = result.site;
    for (const file of files) {
      const answer = await served(subdomain, `/${file.path}`);
      expect(answer.status, file.path).toBe(200);
      expect(createHash("sha256").update(answer.bytes).digest("hex"), file.path).toBe(createHash("sha256").update(file.bytes).digest("hex"));
    }
  });

  it("sends the manifest and the one changed file, nothing else", { timeout: 60_000 }, async () => {
    const changed = randomBytes(2048);
    writeFileSync(path.join(site, "assets/part-3/file-3.txt"), changed);
    files = files.map((f) => (f.path === "assets/part-3/file-3.txt" ? { ...f, bytes: changed } : f));
    proxy.reset();
    const run = await berthCli("deploy", site, "--site", subdomain, "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ version: 2, files_uploaded: 1, bytes_uploaded: 2048 });
    const manifest = Buffer.byteLength(
      JSON.stringify({
        files: files.map((f) => ({ path: f.path, sha256: createHash("sha256").update(f.bytes).digest("hex"), size: f.bytes.length })),
        message: null,
        draft: false,
      }),
    );
    // Request heads and the site lookup ride on top of the manifest and the file; a second copy of
    // either, or any other file, would not fit in the 20 %.
    expect(proxy.sent()).toBeGreaterThan(manifest + 2048);
    expect(proxy.sent()).toBeLessThan((manifest + 2048) * 1.2);
    expect((await served(subdomain, "/assets/part-3/file-3.txt")).bytes.equals(changed)).toBe(true);
  });

  it("killed mid-deploy, leaves the live site as it was; a rerun finishes it", { timeout: 120_000 }, async () => {
    const big = path.join(work, "big");
    const bigFiles = writeFolder(big, [
      { path: "index.html", bytes: Buffer.from("<h1>version two</h1>") },
      ...Array.from({ length: 24 }, (_, i) => ({ path: `video-${i}.bin`, bytes: randomBytes(2 * 1024 * 1024) })),
    ]);
    const before = await served(subdomain, "/");
    proxy.reset();
    const first = start(["deploy", big, "--site", subdomain, "--json"]);
    // Killed once the server holds some of the files, not all. Asking with the same manifest is
    // safe: it answers the CLI's open deploy and what it still lacks, and creates nothing new.
    const sites = (await (await fetch(`${berth.url}/api/sites`, { headers: { authorization: `Bearer ${token}` } })).json()) as SiteListResponse;
    const siteId = sites.sites.find((s) => s.subdomain === subdomain)!.id;
    const manifest = {
      files: bigFiles.map((f) => ({ path: f.path, sha256: createHash("sha256").update(f.bytes).digest("hex"), size: f.bytes.length })),
      message: null,
      draft: false,
    };
    const missing = async () => {
      const answer = await fetch(`${berth.url}/api/sites/${siteId}/deploys`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(manifest),
      });
      return ((await answer.json()) as DeployResponse).missing.length;
    };
    await waitFor(() => proxy.sent() > 1024 * 1024, 60_000);
    for (let left = await missing(); left === bigFiles.length; left = await missing()) await new Promise((r) => setTimeout(r, 50));
    first.child.kill("SIGKILL");
    const killed = await first.done;
    expect(killed.code).toBeNull();
    expect((await served(subdomain, "/")).body).toBe(before.body);

    const rerun = await berthCli("deploy", big, "--site", subdomain, "--json");
    expect(rerun.code, rerun.stderr).toBe(0);
    const result = JSON.parse(rerun.stdout) as { version: number; files_uploaded: number };
    // The same manifest resumes the open deploy: what arrived before the kill is not sent again.
    expect(result.files_uploaded).toBeGreaterThan(0);
    expect(result.files_uploaded).toBeLessThan(bigFiles.length);
    expect((await served(subdomain, "/")).body).toBe("<h1>version two</h1>");
    const video = await served(subdomain, "/video-23.bin");
    expect(video.bytes.equals(bigFiles.at(-1)!.bytes)).toBe(true);
  });

  it("a draft is served on its own address only, until promoted; rollback goes back", { timeout: 60_000 }, async () => {
    const draftDir = path.join(work, "draft");
    writeFolder(draftDir, [{ path: "index.html", bytes: Buffer.from("<h1>draft</h1>") }]);
    const live = (await served(subdomain, "/")).body;
    const run = await berthCli("deploy", draftDir, "--site", subdomain, "--draft", "--json");
    expect(run.code, run.stderr).toBe(0);
    const draft = JSON.parse(run.stdout) as { version: number; url: string; draft: boolean };
    expect(draft.draft).toBe(true);
    expect(draft.url).toContain(`${subdomain}--v${draft.version}.`);
    expect((await getBytes(berth.port, `${subdomain}--v${draft.version}.localhost`, "/")).body).toBe("<h1>draft</h1>");
    expect((await served(subdomain, "/")).body).toBe(live);

    const promoted = await berthCli("promote", subdomain, String(draft.version));
    expect(promoted.code, promoted.stderr).toBe(0);
    expect((await served(subdomain, "/")).body).toBe("<h1>draft</h1>");

    const rolledBack = await berthCli("rollback", subdomain);
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect((await served(subdomain, "/")).body).toBe(live);
  });

  it("a file over the plan's limit stops the deploy with its name and the numbers", { timeout: 60_000 }, async () => {
    const tooBig = path.join(work, "too-big");
    writeFolder(tooBig, [{ path: "index.html", bytes: Buffer.from("<h1>x</h1>") }]);
    // Sparse: 60 MB of size without 60 MB of disk, over the Free plan's 50 MB per file.
    writeFileSync(path.join(tooBig, "huge.bin"), "");
    await new Promise<void>((resolve, reject) =>
      spawn("truncate", ["-s", String(60 * 1000 * 1000), path.join(tooBig, "huge.bin")]).on("close", (code) =>
        code === 0 ? resolve() : reject(new Error("truncate")),
      ),
    );
    proxy.reset();
    const run = await berthCli("deploy", tooBig, "--site", subdomain);
    expect(run.code).toBe(1);
    const last = run.stderr.trim().split("\n").at(-1)!;
    expect(last).toMatch(/^berth deploy: /);
    expect(last).toContain(DEPLOY_TEXT.fileTooLarge("huge.bin", 60 * 1000 * 1000, FREE_PLAN.maxFileBytes));
    // Refused from the manifest: the 60 MB never left the machine.
    expect(proxy.sent()).toBeLessThan(1024 * 1024);
  });

  it("a deploy past the plan's storage stops with the numbers, before any byte", { timeout: 90_000 }, async () => {
    const full = path.join(work, "full");
    mkdirSync(full, { recursive: true });
    // Sparse files, each under the largest file allowed, of different sizes (so different
    // contents), together past the Free plan's storage.
    const size = (i: number) => 46 * 1000 * 1000 + i;
    for (let i = 0; i < 12; i++) {
      writeFileSync(path.join(full, `part-${i}.bin`), "");
      await new Promise<void>((resolve, reject) =>
        spawn("truncate", ["-s", String(size(i)), path.join(full, `part-${i}.bin`)]).on("close", (code) =>
          code === 0 ? resolve() : reject(new Error("truncate")),
        ),
      );
    }
    proxy.reset();
    const run = await berthCli("deploy", full, "--site", subdomain);
    expect(run.code).toBe(1);
    const last = run.stderr.trim().split("\n").at(-1)!;
    expect(last).toMatch(/^berth deploy: /);
    expect(last).toContain("This deploy would take your storage past your plan's");
    expect(last).toContain(`the limit is`);
    expect(proxy.sent()).toBeLessThan(1024 * 1024);
    rmSync(full, { recursive: true });
  });
});
