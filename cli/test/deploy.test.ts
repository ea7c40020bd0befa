// The built berth CLI, run as a user runs it (node berth.js in a child process, no config but its
// own), against a real Berth server listening on a port: sign-in with a token, deploys that send
// only what changed, drafts and promotion, rollback, the listings, and the failures a user meets,
// each with its exit code and one line. The deploy API itself is tested on both databases in
// server/api/deploys/; this is the CLI's side, on PGlite.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTestServer, type ListeningServer, type TestClient, type TestServer } from "../../server/test/support";
import { signedInClient } from "../../server/test/factories";
import { createToken } from "../../server/test/apiTokens";
import { hostOf } from "../../server/test/sites";
import type { SiteManifestResponse } from "../../common/deploys";
import { WITH_PUBLISH_BYTES } from "../../common/folderDeploy";
import type { DeploymentListResponse, SiteListResponse } from "../../common/sites";
import { buildCliForTest, freshHome, runBuilt, type CliRun, type RunOptions } from "./run";

const work = mkdtempSync(path.join(os.tmpdir(), "berth-cli-deploy-"));
let berth: string;
let server: TestServer;
let listening: ListeningServer;
let base: string;

beforeAll(async () => {
  berth = buildCliForTest();
  server = await getTestServer("pglite");
  listening = await server.listen();
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

let folders = 0;
/** A folder of files to deploy. */
function folder(files: Record<string, string | Buffer>): string {
  const dir = path.join(work, `site-${++folders}`);
  write(dir, files);
  return dir;
}
function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

/** A signed-in owner with a full token, and the environment a CI job would give the CLI. */
async function owner(): Promise<{ client: TestClient; userId: string; email: string; env: Record<string, string> }> {
  const { client, user } = await signedInClient(server);
  const { secret } = await createToken(client, "full", { name: "CLI tests" });
  return { client, userId: user.id, email: user.email, env: { BERTH_SERVER: base, BERTH_TOKEN: secret } };
}

const cli = (argv: string[], options: RunOptions = {}): Promise<CliRun> => runBuilt(berth, argv, options);
const served = async (url: string, pathname = "/") => (await server.edge.get(hostOf(url), pathname)).text;
const deployJson = (run: CliRun) =>
  JSON.parse(run.stdout) as {
    site: string;
    version: number;
    url: string;
    draft: boolean;
    files: number;
    files_uploaded: number;
    bytes_uploaded: number;
    seconds: number;
  };

describe("berth login --token, whoami, logout", () => {
  it("checks a token from stdin, saves it owner-only, and forgets it", async () => {
    const { env, email } = await owner();
    const home = freshHome();
    const config = path.join(home, "berth", "config.json");
    const saved = await cli(["login", "--token", "--server", base], { env: { XDG_CONFIG_HOME: home }, stdin: `${env.BERTH_TOKEN}\n` });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toBe("");
    expect(saved.stderr).toContain(`Signed in to ${base} as ${email}.`);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(config)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ server: base, token: env.BERTH_TOKEN, email });

    // No flag, no variable: the saved server and token.
    const who = await cli(["whoami"], { env: { XDG_CONFIG_HOME: home } });
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toBe(`${email} on ${base}\ntoken “CLI tests” (full, all sites) from ${config}\n`);

    const out = await cli(["logout"], { env: { XDG_CONFIG_HOME: home } });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`${base}/dashboard/integrations`);
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ server: base });
    const after = await cli(["whoami"], { env: { XDG_CONFIG_HOME: home } });
    expect(after).toMatchObject({ code: 1, stderr: `berth whoami: not signed in to ${base}: run berth login, or set BERTH_TOKEN\n` });
  });

  it("refuses a wrong token before saving it", async () => {
    const home = freshHome();
    const refused = await cli(["login", "--token", "--server", base], { env: { XDG_CONFIG_HOME: home }, stdin: "berth_not-a-real-token\n" });
    expect(refused).toMatchObject({ code: 1, stdout: "", stderr: `berth login: ${base} refused the token: Invalid or revoked API token\n` });
    expect(() => statSync(path.join(home, "berth", "config.json"))).toThrow();
  });

  it("signs in through the device flow once the code is approved (the browser's side is e2e/cli-login)", { timeout: 60_000 }, async () => {
    const { client, email } = await owner();
    const home = freshHome();
    const child = spawn(process.execPath, [berth, "login", "--server", base], { env: { PATH: process.env.PATH ?? "", XDG_CONFIG_HOME: home } });
    let stderr = "";
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /approve the code ([A-Z]{4}-[A-Z]{4}):\n {2}(\S+)/.exec(stderr);
        if (match && !stderr.includes("approved-by-test")) {
          stderr += "approved-by-test";
          expect(match[2]).toBe(`http://localhost:8080/dashboard/cli?code=${match[1]}`);
          void client.post(`/api/cli/login/${match[1]}/approve`, {});
        }
      });
      child.on("close", resolve);
    });
    expect(code, stderr).toBe(0);
    const saved = JSON.parse(readFileSync(path.join(home, "berth", "config.json"), "utf8")) as { token: string; email: string };
    expect(saved).toMatchObject({ server: base, email });
    expect((await cli(["whoami"], { env: { XDG_CONFIG_HOME: home } })).stdout).toContain(
      `token “berth CLI on ${os.hostname().slice(0, 47)}” (full, all sites)`,
    );
  });

  it("stops when the code is denied, with the server's words", { timeout: 60_000 }, async () => {
    const { client } = await owner();
    const started = spawn(process.execPath, [berth, "login", "--server", base], {
      env: { PATH: process.env.PATH ?? "", XDG_CONFIG_HOME: freshHome() },
    });
    let stderr = "";
    const code = await new Promise<number | null>((resolve) => {
      started.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /approve the code ([A-Z]{4}-[A-Z]{4})/.exec(stderr);
        if (match && !stderr.includes("denied-by-test")) {
          stderr += "denied-by-test";
          void client.post(`/api/cli/login/${match[1]}/deny`, {});
        }
      });
      started.on("close", resolve);
    });
    expect(code).toBe(1);
    expect(stderr).toContain("berth login: This sign-in request was denied in the browser.\n");
  });
});

describe("berth deploy", () => {
  it("creates a site and deploys a folder, its empty folders too; stdout is only the address", async () => {
    const { env, client } = await owner();
    const dir = folder({
      "index.html": "<h1>Version one</h1>",
      "css/site.css": "body { color: navy }",
      _redirects: "/old /new 301",
      ".env": "SECRET=do-not-publish",
      ".well-known/security.txt": "Contact: mailto:security@example.com",
      "berth.json": JSON.stringify({ server: "https://not-this-one.example" }),
    });
    mkdirSync(path.join(dir, "images"));
    const run = await cli(["deploy", dir, "--create", "CLI site"], { env });
    expect(run.code, run.stderr).toBe(0);
    const url = run.stdout.trim();
    expect(run.stdout).toBe(`${url}\n`);
    expect(url).toMatch(/^http:\/\/[a-z]+\.localhost(:\d+)?\/$/);
    expect(run.stderr).toMatch(/Created the site [a-z]+/);
    expect(run.stderr).toMatch(/Published version 1 of [a-z]+ in [\d.]+ s \(4 files uploaded/);
    expect(await served(url)).toBe("<h1>Version one</h1>");
    expect(await served(url, "/.well-known/security.txt")).toContain("security@example.com");
    expect((await server.edge.get(hostOf(url), "/.env")).status).toBe(404);
    expect((await server.edge.get(hostOf(url), "/berth.json")).status).toBe(404);
    const [site] = (await client.get("/api/sites")).json<SiteListResponse>().sites;
    expect((await client.get(`/api/sites/${site!.id}/files/manifest`)).json<SiteManifestResponse>().folders).toEqual(["images"]);
  });

  it("redeploys sending only what changed; --json describes it", async () => {
    const { env } = await owner();
    const dir = folder({ "index.html": "<h1>One</h1>", "a.css": "a{}", "b.js": "b()", "img/logo.svg": "<svg/>" });
    const first = deployJson(await cli(["deploy", dir, "--create", "Incremental", "--json"], { env }));
    expect(first).toMatchObject({ version: 1, draft: false, files: 4, files_uploaded: 4 });
    write(dir, { "index.html": "<h1>Two</h1>" });
    const run = await cli(["deploy", dir, "--site", first.site, "--json", "-m", "Change the heading"], { env: { ...env, BERTH_DEBUG: "1" } });
    expect(run.code, run.stderr).toBe(0);
    const second = deployJson(run);
    expect(second).toEqual({
      site: first.site,
      version: 2,
      url: first.url,
      draft: false,
      files: 4,
      files_uploaded: 1,
      bytes_uploaded: "<h1>Two</h1>".length,
      seconds: expect.any(Number),
    });
    // A small change travels in the publish itself: two requests, the manifest and the publish
    // (after the site's lookup: this HOME remembers no site id).
    expect(run.stderr).toContain("Publishing with 1 new file (12 B); 3 already on the server");
    expect(run.stderr.match(/^debug: .* (GET|PUT|POST) \S+: \d+/gm)?.map((line) => line.replace(/^.* (GET|PUT|POST) (\S+):.*$/, "$1 $2"))).toEqual([
      "GET /api/sites",
      expect.stringMatching(/^POST \/api\/sites\/[0-9a-f-]{36}\/deploys$/),
      expect.stringMatching(/^POST \/api\/sites\/[0-9a-f-]{36}\/deploys\/[0-9a-f-]{36}\/publish$/),
    ]);
    expect(await served(first.url)).toBe("<h1>Two</h1>");

    // More than a publish should carry goes ahead of it, several requests at a time.
    write(dir, { "big.bin": Buffer.alloc(WITH_PUBLISH_BYTES + 1, 7) });
    const large = await cli(["deploy", dir, "--site", first.site], { env });
    expect(large.code, large.stderr).toBe(0);
    expect(large.stderr).toContain("Uploading 1 new file");
    expect(large.stderr).toContain("Publishing…");

    // Nothing changed: nothing travels, and a new version is still made.
    const same = deployJson(await cli(["deploy", dir, "--site", first.site, "--json"], { env }));
    expect(same).toMatchObject({ version: 4, files_uploaded: 0, bytes_uploaded: 0 });
  });

  it("remembers a site's id, so a redeploy opens its deploy without listing the sites; a stale id is looked up again", async () => {
    const { env } = await owner();
    const home = freshHome();
    const traced = { ...env, HOME: home, BERTH_DEBUG: "1" };
    const dir = folder({ "index.html": "<h1>One</h1>" });
    const first = deployJson(await cli(["deploy", dir, "--create", "Remembered", "--json"], { env: traced }));
    write(dir, { "index.html": "<h1>Two</h1>" });
    const again = await cli(["deploy", dir, "--site", first.site, "--json"], { env: traced });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/GET \/api\/sites:/);
    expect(again.stderr).toMatch(/POST \/api\/sites\/[0-9a-f-]{36}\/deploys: 201/);
    expect(await served(first.url)).toBe("<h1>Two</h1>");

    // An id the server does not know as this user's site (a site deleted and purged, say).
    const cacheFile = path.join(home, ".cache", "berth", "sites.json");
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { version: number; sites: [string, string, string, string][] };
    expect(cached.sites.map(([, , subdomain]) => subdomain)).toEqual([first.site]);
    const realId = cached.sites[0]![1];
    cached.sites[0]![1] = "00000000-0000-4000-8000-000000000000";
    writeFileSync(cacheFile, JSON.stringify(cached));
    write(dir, { "index.html": "<h1>Three</h1>" });
    const stale = await cli(["deploy", dir, "--site", first.site, "--json"], { env: traced });
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stderr).toMatch(/POST \/api\/sites\/00000000-0000-4000-8000-000000000000\/deploys: 404/);
    expect(stale.stderr).toMatch(/GET \/api\/sites: 200/);
    expect(deployJson(stale)).toMatchObject({ site: first.site, version: 3 });
    expect(await served(first.url)).toBe("<h1>Three</h1>");
    expect((JSON.parse(readFileSync(cacheFile, "utf8")) as typeof cached).sites[0]![1]).toBe(realId);
  });

  it("streams large files alone and batches small ones; the bytes arrive intact", async () => {
    const { env } = await owner();
    const large = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    const smalls = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`pages/p${i}.html`, `<p>page ${i}</p>`]));
    const dir = folder({ "index.html": "<h1>Big</h1>", "video.bin": large, ...smalls });
    const result = deployJson(await cli(["deploy", dir, "--create", "Large", "--json"], { env }));
    expect(result).toMatchObject({ files: 42, files_uploaded: 42 });
    expect((await server.edge.get(hostOf(result.url), "/video.bin")).body.equals(large)).toBe(true);
    expect(await served(result.url, "/pages/p39")).toBe("<p>page 39</p>");
  });

  it("takes the site from berth.json, BERTH_SITE and --site, in that rising order, and honours .berthignore", async () => {
    const { env } = await owner();
    const a = deployJson(await cli(["deploy", folder({ "index.html": "A" }), "--create", "Site A", "--json"], { env }));
    const b = deployJson(await cli(["deploy", folder({ "index.html": "B" }), "--create", "Site B", "--json"], { env }));
    const dir = folder({ "index.html": "C", "notes.md": "private", ".berthignore": "*.md\n", "berth.json": JSON.stringify({ site: a.site }) });
    expect(deployJson(await cli(["deploy", dir, "--json"], { env })).site).toBe(a.site);
    expect(await served(a.url)).toBe("C");
    expect((await server.edge.get(hostOf(a.url), "/notes.md")).status).toBe(404);
    expect(deployJson(await cli(["deploy", dir, "--json"], { env: { ...env, BERTH_SITE: b.site } })).site).toBe(b.site);
    expect(deployJson(await cli(["deploy", "--json", "--site", a.site], { env: { ...env, BERTH_SITE: b.site }, cwd: dir })).site).toBe(a.site);
  });

  it("drafts live on their own address until promoted; rollback goes back a version", { timeout: 90_000 }, async () => {
    const { env } = await owner();
    const dir = folder({ "index.html": "v1" });
    const v1 = deployJson(await cli(["deploy", dir, "--create", "Drafts", "--json"], { env }));
    write(dir, { "index.html": "v2 draft" });
    const draft = await cli(["deploy", dir, "--site", v1.site, "--draft"], { env });
    expect(draft.code, draft.stderr).toBe(0);
    const draftUrl = draft.stdout.trim();
    expect(draftUrl).toMatch(new RegExp(`^http://${v1.site}--v2\\.localhost(:\\d+)?/$`));
    expect(draft.stderr).toContain(`berth promote ${v1.site} 2 makes it live`);
    expect(await served(draftUrl)).toBe("v2 draft");
    expect(await served(v1.url)).toBe("v1");

    const listed = await cli(["deploys", v1.site], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(/^VERSION\s+STATE\s+CREATED \(UTC\)\s+FILES\s+NOTE$/);
    expect(listed.stdout).toMatch(/\nv2\s+draft\s/);
    expect(listed.stdout).toMatch(/\nv1\s+live\s/);

    const promoted = await cli(["promote", v1.site, "2"], { env });
    expect(promoted).toMatchObject({ code: 0, stdout: `${v1.url}\n` });
    expect(await served(v1.url)).toBe("v2 draft");

    write(dir, { "index.html": "v3" });
    await cli(["deploy", dir, "--site", v1.site], { env });
    expect(await served(v1.url)).toBe("v3");
    // Without a version: the successful version before the live one.
    const back = await cli(["rollback", v1.site], { env });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`Rolled ${v1.site} back to version 2.`);
    expect(await served(v1.url)).toBe("v2 draft");
    expect((await cli(["rollback", v1.site, "1"], { env })).code).toBe(0);
    expect(await served(v1.url)).toBe("v1");

    const versions = (await cli(["deploys", v1.site, "--json"], { env })).stdout;
    expect((JSON.parse(versions) as DeploymentListResponse["deployments"]).find((d) => d.is_live)?.version).toBe(1);
    const sites = JSON.parse((await cli(["sites", "--json"], { env })).stdout) as SiteListResponse["sites"];
    expect(sites.map((s) => s.subdomain)).toEqual([v1.site]);
    const table = await cli(["sites"], { env });
    expect(table.stdout).toMatch(new RegExp(`^SITE\\s+LIVE\\s+NAME\\s+URL\\n${v1.site}\\s+v1\\s+Drafts\\s+${v1.url.replace(/[.]/g, "\\.")}\\n$`));
  });
});

describe("what goes wrong, in one line", () => {
  it("a revoked token", async () => {
    const { client, env } = await owner();
    const tokens = (await client.get("/api/tokens")).json<{ tokens: { id: string }[] }>().tokens;
    for (const token of tokens) await client.delete(`/api/tokens/${token.id}`);
    const run = await cli(["sites"], { env });
    expect(run).toEqual({ code: 1, stdout: "", stderr: "berth sites: Invalid or revoked API token: run berth login again, or check BERTH_TOKEN\n" });
  });

  it("a file over the plan's limit, by name, before any byte is sent", async () => {
    const { env } = await owner();
    const dir = folder({ "index.html": "x" });
    // Sparse: the limit is 50 MB, and the disk need not hold it.
    writeFileSync(path.join(dir, "huge.bin"), "");
    truncateSync(path.join(dir, "huge.bin"), 50 * 1024 * 1024 + 1);
    const run = await cli(["deploy", dir, "--create", "Too large"], { env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(
      "berth deploy: File too large: huge.bin is 52,428,801 bytes; the largest file your plan allows is 50MB (52,428,800 bytes)",
    );
  });

  it("the storage quota, with the numbers", async () => {
    const { env } = await owner();
    const dir = folder({ "index.html": "x" });
    for (let i = 0; i < 11; i++) {
      writeFileSync(path.join(dir, `part${i}.bin`), "");
      truncateSync(path.join(dir, `part${i}.bin`), 48 * 1024 * 1024 + i);
    }
    const run = await cli(["deploy", dir, "--create", "Full"], { env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(
      "berth deploy: Storage full: This deploy would take your storage past your plan's 500 MB: it adds 553,648,184 bytes to the 0 bytes you store, " +
        "and the limit is 524,288,000 bytes. Delete files or sites you no longer need, or ask the operator for a bigger plan.",
    );
  });

  it("a bad _redirects line: the publish fails and the live version stays", async () => {
    const { env } = await owner();
    const dir = folder({ "index.html": "good" });
    const live = deployJson(await cli(["deploy", dir, "--create", "Redirects", "--json"], { env }));
    write(dir, { "index.html": "broken", _redirects: "/a /b 303" });
    const run = await cli(["deploy", dir, "--site", live.site], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n").at(-1)).toMatch(/^berth deploy: the publish failed: _redirects line 1: .*303/);
    expect(await served(live.url)).toBe("good");
  });

  it("an unknown site, a missing choice, an empty folder, an unreachable server", async () => {
    const { env } = await owner();
    const dir = folder({ "index.html": "x" });
    expect(await cli(["deploy", dir, "--site", "nosuchsite"], { env })).toEqual({
      code: 1,
      stdout: "",
      stderr: `berth deploy: no site "nosuchsite" on ${base}: you have no sites yet\n`,
    });
    const unchosen = await cli(["deploy", dir], { env });
    expect(unchosen.code).toBe(2);
    expect(unchosen.stderr).toContain('berth: no site chosen: pass --site SUBDOMAIN or --create NAME, or put {"site": "SUBDOMAIN"} in berth.json');
    const empty = path.join(work, "empty");
    mkdirSync(path.join(empty, ".git"), { recursive: true });
    const nothing = await cli(["deploy", empty, "--site", "x"], { env });
    expect(nothing).toMatchObject({ code: 1, stderr: `berth deploy: ${empty} has no files to deploy\n` });
    const gone = await cli(["sites"], { env: { ...env, BERTH_SERVER: "http://127.0.0.1:1" } });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^berth sites: could not reach http:\/\/127\.0\.0\.1:1: /);
  });
});
