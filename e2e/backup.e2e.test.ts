// Backups as an operator runs them, against the built server: `npm run berth -- backup` while
// Berth runs (PGlite, so the running process makes the snapshot over its admin socket), then
// `restore` into a new data directory and a second Berth started on it. Every site and every
// deployment version must serve byte-identical content there, and both accounts must sign in
// with their passwords (sessions and password hashes, and the secret, came across). A changed
// archive must be refused with nothing written.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteResponse } from "../common/sites";
import { multipartBody, zipOf } from "../server/test/sites";
import { berthCli, freePort, runBerth, startBerth, type Berth, type RunningProcess } from "./support/berth";
import { solidPng } from "./support/png";

const PASSWORD = "correct horse battery";
const USERS = ["grace.hopper@example.com", "alan.turing@example.com"] as const;
/** Alan's site: 70 KB that are not text, so any changed byte shows. */
const BINARY = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));

/** A site host's answer as bytes (getWithHost decodes text, which would hide a changed byte). */
function getBytes(port: number, host: string, pathname: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path: pathname, headers: { host } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** Berth on an existing data directory (startBerth always makes a new one). */
async function startOn(dataDir: string, extraEnv: Record<string, string> = {}): Promise<{ port: number; url: string; process: RunningProcess }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const proc = runBerth({ PORT: String(port), BERTH_DATA_DIR: dataDir, BERTH_APP_URL: url, ...extraEnv });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const exitCode = await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 200, "running"))]);
    if (exitCode !== "running") throw new Error(`Berth exited (${String(exitCode)}) during startup:\n${proc.output()}`);
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { port, url, process: proc };
    if (Date.now() > deadline) throw new Error(`Berth did not become healthy:\n${proc.output()}`);
  }
}

class Account {
  cookie = "";
  constructor(
    readonly api: string,
    readonly origin: string,
    readonly email: string,
  ) {}

  call(method: string, pathname: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookie, origin: this.origin };
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(`${this.api}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  async signIn(): Promise<number> {
    const response = await this.call("POST", "/api/auth/sign-in/email", { email: this.email, password: PASSWORD });
    this.cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return response.status;
  }

  async upload(pathname: string, fields: Record<string, string>, file: { name: string; content: Buffer | string; type: string }): Promise<Response> {
    const { body, contentType } = multipartBody(fields, file);
    return fetch(`${this.api}${pathname}`, {
      method: "POST",
      headers: { cookie: this.cookie, origin: this.origin, "content-type": contentType },
      body: new Uint8Array(body),
    });
  }

  async createSite(name: string, file: { name: string; content: Buffer | string; type: string }): Promise<SiteResponse> {
    const { subdomain } = (await (await this.call("POST", "/api/subdomains/reserve", {})).json()) as { subdomain: string };
    const created = await this.upload("/api/sites", { name, subdomain }, file);
    expect(created.status).toBe(201);
    return (await created.json()) as SiteResponse;
  }
}

/** What a site serves, host label by host label (the live one and every {subdomain}--v{n}). */
interface Served {
  label: string;
  path: string;
  body: Buffer;
}

describe("backup and restore of a running Berth", () => {
  let berth: Berth;
  let env: Record<string, string>;
  let tmp: string;
  let archive: string;
  let restoredDir: string;
  let restored: { port: number; url: string; process: RunningProcess } | undefined;
  const served: Served[] = [];
  const sites = new Map<string, { name: string; versions: number }>();

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "berth-backup-e2e-"));
    berth = await startBerth();
    env = { BERTH_DATA_DIR: berth.dataDir, BERTH_APP_URL: berth.url };
    const api = `http://127.0.0.1:${berth.port}`;
    const [grace, alan] = USERS.map((email) => new Account(api, berth.url, email)) as [Account, Account];
    for (const account of [grace, alan]) {
      const signUp = await account.call("POST", "/api/auth/sign-up/email", {
        email: account.email,
        password: PASSWORD,
        name: account.email.split("@")[0],
      });
      expect(signUp.status).toBe(200);
      const confirm = berth.outbox.lastLink(account.email, /Confirm your e-mail address/);
      expect((await fetch(confirm.replace(berth.url, api), { redirect: "manual" })).status).toBe(302);
      expect(await account.signIn()).toBe(200);
    }

    // Grace: a page with three deployments, and a zipped site with nested folders and binary files.
    const page = await grace.createSite("Notes", { name: "index.html", content: "<h1>Notes v1</h1>", type: "text/html" });
    for (const version of [2, 3]) {
      expect(
        (await grace.upload(`/api/sites/${page.id}/files`, {}, { name: "index.html", content: `<h1>Notes v${version}</h1>`, type: "text/html" }))
          .status,
      ).toBe(201);
    }
    sites.set(page.subdomain, { name: "Notes", versions: 3 });
    const zip = await zipOf([
      { name: "index.html", data: `<!doctype html><link rel=stylesheet href=css/site.css>${"<p>Compilers.</p>".repeat(300)}` },
      { name: "css/site.css", data: "p { color: navy }" },
      { name: "img/logo.png", data: solidPng(16, 16, [12, 34, 56]) },
      { name: "docs/deep/page.html", data: "<p>deep</p>" },
    ]);
    const zipped = await grace.createSite("Compilers", { name: "compilers.zip", content: zip, type: "application/zip" });
    sites.set(zipped.subdomain, { name: "Compilers", versions: 1 });
    // Alan: a site of one binary file.
    const blob = await alan.createSite("Enigma", { name: "index.html", content: BINARY, type: "text/html" });
    sites.set(blob.subdomain, { name: "Enigma", versions: 1 });

    for (const [subdomain, { versions }] of sites) {
      const labels = [subdomain, ...Array.from({ length: versions }, (_, i) => `${subdomain}--v${i + 1}`)];
      for (const label of labels) {
        // Clean URLs: /docs/deep/page serves page.html (the .html path redirects to it).
        for (const pathname of ["/", "/css/site.css", "/img/logo.png", "/docs/deep/page"]) {
          const answer = await getBytes(berth.port, `${label}.localhost`, pathname);
          if (answer.status === 200) served.push({ label, path: pathname, body: answer.body });
        }
      }
    }
    // Live pages, three versions of Notes, and the zip's four files.
    expect(served.filter((s) => s.label.startsWith(page.subdomain))).toHaveLength(4);
    expect(served.filter((s) => s.label === zipped.subdomain)).toHaveLength(4);
  });

  afterAll(async () => {
    if (restored && restored.process.child.exitCode === null) {
      restored.process.child.kill("SIGTERM");
      await restored.process.exited;
    }
    if (berth?.process.child.exitCode === null) await berth.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("backs up while Berth runs, through its admin socket, into a private file", async () => {
    archive = path.join(tmp, "berth.tar.gz");
    const backup = await berthCli(env, "backup", archive);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(new RegExp(`^Backed up Berth to ${archive.replace(/[.]/g, "\\.")} \\(`));
    expect(backup.stdout).toMatch(/database {2}PGlite, as of \d{4}-/);
    expect(backup.stdout).toMatch(/keep it private/);
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    // The server kept its lock and its socket: the CLI never opened the database itself.
    expect(readFileSync(path.join(berth.dataDir, "berth.lock"), "utf8")).toBe(String(berth.process.child.pid));
    expect(existsSync(path.join(berth.dataDir, "admin.sock"))).toBe(true);
  });

  it("refuses a changed archive and writes nothing", async () => {
    const changed = path.join(tmp, "changed.tar.gz");
    const tar = gunzipSync(readFileSync(archive));
    // Flip one byte of the Enigma site's file, inside its blob entry; the manifest stays as it was.
    const at = tar.indexOf(BINARY.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    tar[at + 3]! ^= 0xff;
    writeFileSync(changed, gzipSync(tar));
    const target = path.join(tmp, "never-written");
    const restore = await berthCli({ BERTH_APP_URL: "http://localhost:9" }, "restore", changed, "--data-dir", target);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/^Error: blobs\/[0-9a-f]{64} does not match the SHA-256 the manifest gives it/);
    expect(existsSync(target)).toBe(false);
  });

  it("restores into a new data directory, where a new Berth serves every site byte for byte and both accounts sign in", async () => {
    // A change after the backup must not be in the restored instance.
    const api = `http://127.0.0.1:${berth.port}`;
    const grace = new Account(api, berth.url, USERS[0]);
    expect(await grace.signIn()).toBe(200);
    const notes = [...sites].find(([, s]) => s.name === "Notes")![0];
    const { sites: list } = (await (await grace.call("GET", "/api/sites")).json()) as { sites: SiteResponse[] };
    const notesId = list.find((s) => s.subdomain === notes)!.id;
    expect(
      (await grace.upload(`/api/sites/${notesId}/files`, {}, { name: "index.html", content: "<h1>after the backup</h1>", type: "text/html" })).status,
    ).toBe(201);

    restoredDir = path.join(tmp, "restored");
    const restore = await berthCli({ BERTH_APP_URL: "http://localhost:9" }, "restore", archive, "--data-dir", restoredDir);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored .* into .*restored\./);
    expect(statSync(path.join(restoredDir, "secret")).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(restoredDir, "secret"), "utf8")).toBe(readFileSync(path.join(berth.dataDir, "secret"), "utf8"));

    restored = await startOn(restoredDir, { BERTH_BACKUP_DAILY: "true" });
    for (const { label, path: pathname, body } of served) {
      const answer = await getBytes(restored.port, `${label}.localhost`, pathname);
      expect({ label, pathname, status: answer.status }).toEqual({ label, pathname, status: 200 });
      expect(answer.body.equals(body), `${label}${pathname} is byte-identical`).toBe(true);
    }
    expect((await getBytes(restored.port, `${notes}--v4.localhost`, "/")).status).toBe(404);

    const restoredApi = `http://127.0.0.1:${restored.port}`;
    for (const email of USERS) {
      const account = new Account(restoredApi, restored.url, email);
      expect(await account.signIn()).toBe(200);
      const { sites: theirs } = (await (await account.call("GET", "/api/sites")).json()) as { sites: SiteResponse[] };
      expect(theirs.map((s) => s.name).sort()).toEqual(
        [...sites.values()]
          .filter((s) => (email === USERS[0] ? s.name !== "Enigma" : s.name === "Enigma"))
          .map((s) => s.name)
          .sort(),
      );
      for (const site of theirs) {
        const { deployments } = (await (await account.call("GET", `/api/sites/${site.id}/deployments`)).json()) as { deployments: unknown[] };
        expect(deployments).toHaveLength(sites.get(site.subdomain)!.versions);
      }
    }
    // A wrong password is still wrong: the hashes came across, not an open door.
    const wrong = await fetch(`${restoredApi}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: restored.url },
      body: JSON.stringify({ email: USERS[1], password: "not the password" }),
    });
    expect(wrong.status).toBe(401);

    // BERTH_BACKUP_DAILY: the worker makes today's backup at once, since there is none yet.
    const daily = path.join(restoredDir, "backups", `berth-${new Date().toISOString().slice(0, 10)}.tar.gz`);
    const deadline = Date.now() + 30_000;
    while (!existsSync(daily) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(daily), restored.process.output()).toBe(true);
    expect(statSync(daily).mode & 0o777).toBe(0o600);
  });

  it("refuses to restore over a data directory that is in use", async () => {
    const restore = await berthCli({ BERTH_APP_URL: "http://localhost:9" }, "restore", archive, "--data-dir", restoredDir);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/is not empty: restore into a new or empty data directory/);
  });

  it("backs up a stopped Berth by opening its database itself, and lets go of the lock", async () => {
    restored!.process.child.kill("SIGTERM");
    expect(await restored!.process.exited).toBe(0);
    const file = path.join(tmp, "stopped.tar.gz");
    const backup = await berthCli({ BERTH_DATA_DIR: restoredDir, BERTH_APP_URL: restored!.url }, "backup", file);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/blobs {5}\d+ \(/);
    expect(existsSync(path.join(restoredDir, "berth.lock"))).toBe(false);
    expect(existsSync(path.join(restoredDir, "admin.sock"))).toBe(false);
  });
});
