// The CI recipes of the docs page (docs/recipes/), run as a CI runner would run them: each
// recipe's own commands, in order, in a clean environment (a fresh home with no berth config, an
// empty npm prefix) given only what the recipe says to set up: BERTH_SERVER, BERTH_TOKEN and
// BERTH_SITE, and the CI's own commit variable. The first command installs the CLI from the
// server itself (/cli/berth-cli.tgz, which the build packs); the last one deploys.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiTokenResponse } from "../common/apiTokens";
import type { DeploymentListResponse, SiteResponse } from "../common/sites";
import { getWithHost, root, startBerth, type Berth } from "./support/berth";
import { waitFor } from "./support/pages";

const recipe = (name: string) => readFileSync(path.join(root, "docs/recipes", name), "utf8");

/** The shell commands of a GitHub Actions workflow: every `run:` step, in order. */
function githubActionsCommands(yaml: string): string[] {
  return [...yaml.matchAll(/^\s*- run: (.+)$/gm)].map((m) => m[1]!);
}

/** The shell commands of a GitLab CI job: its `script:` list, in order. */
function gitlabCommands(yaml: string): string[] {
  const script = yaml.split(/^\s*script:\s*$/m)[1] ?? "";
  return [...script.matchAll(/^\s*- (.+)$/gm)].map((m) => m[1]!);
}

const RECIPES: { file: string; commands: (yaml: string) => string[]; ci: Record<string, string>; note: string }[] = [
  {
    file: "github-actions.yml",
    commands: githubActionsCommands,
    ci: { GITHUB_SHA: "4f2a9c1e0b7d3a6f8e5c2b1a0d9f8e7c6b5a4f3e" },
    note: "Commit 4f2a9c1e0b7d3a6f8e5c2b1a0d9f8e7c6b5a4f3e",
  },
  { file: "gitlab-ci.yml", commands: gitlabCommands, ci: { CI_COMMIT_SHORT_SHA: "4f2a9c1e" }, note: "Commit 4f2a9c1e" },
];

/** Runs one command with `sh -c` in `cwd`, with exactly `env`. */
function sh(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the CI recipes, run as written", () => {
  let berth: Berth;
  let cookie = "";
  const work = mkdtempSync(path.join(os.tmpdir(), "berth-recipes-"));

  /** A request as the dashboard makes it, signed in. */
  const dashboard = (pathname: string, body: unknown) =>
    fetch(`${berth.url}${pathname}`, {
      method: "POST",
      headers: { origin: berth.url, "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    berth = await startBerth();
    const email = `ci.${Date.now()}@example.com`;
    const password = "a long enough password";
    expect((await dashboard("/api/auth/sign-up/email", { email, password, name: "CI Owner" })).status).toBe(200);
    const link = await waitFor(() => berth.outbox.lastLink(email, /Confirm your e-mail/));
    await fetch(link, { redirect: "manual" });
    const signedIn = await dashboard("/api/auth/sign-in/email", { email, password });
    expect(signedIn.status).toBe(200);
    cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  });
  afterAll(async () => {
    await berth?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(RECIPES)("$file", { timeout: 120_000 }, async ({ file, commands, ci, note }) => {
    const yaml = recipe(file);
    const steps = commands(yaml);
    expect(steps.length, "the recipe's commands").toBeGreaterThanOrEqual(2);
    for (const name of ["BERTH_SERVER", "BERTH_TOKEN", "BERTH_SITE"]) expect(yaml).toContain(name);

    // What the recipe's comments ask for: a site, and a token with the Deploy permission for it.
    const site = (await (await dashboard("/api/sites", { name: `From ${file}` })).json()) as SiteResponse;
    const token = (await (
      await dashboard("/api/tokens", { name: `CI ${file}`, permission: "deploy", siteId: site.id })
    ).json()) as CreatedApiTokenResponse;

    // The runner: a checkout with ./public, a home without any berth config, an npm prefix of its own.
    const runner = path.join(work, file);
    const home = path.join(runner, "home");
    const prefix = path.join(runner, "npm-global");
    const checkout = path.join(runner, "checkout");
    for (const dir of [home, prefix, path.join(checkout, "public")]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(checkout, "public/index.html"), `<h1>Deployed by ${file}</h1>`);
    const env: Record<string, string> = {
      PATH: [path.join(prefix, "bin"), path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
      HOME: home,
      // The runner's own npm, kept to this runner and off the network beyond the Berth server.
      npm_config_prefix: prefix,
      npm_config_cache: path.join(runner, "npm-cache"),
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
      BERTH_SERVER: berth.url,
      BERTH_TOKEN: token.secret,
      BERTH_SITE: site.subdomain,
      ...ci,
    };

    for (const command of steps) {
      const { code, output } = await sh(command, checkout, env);
      expect(code, `${command}\n${output}`).toBe(0);
    }

    const served = await getWithHost(berth.port, new URL(site.url).host, "/");
    expect(served.body).toBe(`<h1>Deployed by ${file}</h1>`);
    const deployments = (await (
      await fetch(`${berth.url}/api/sites/${site.id}/deployments`, { headers: { cookie } })
    ).json()) as DeploymentListResponse;
    expect(deployments.deployments[0]).toMatchObject({ version: 1, is_live: true, note });
    // Nothing was saved on the runner: the token lived in the environment only.
    expect(existsSync(path.join(home, ".config", "berth"))).toBe(false);
  });
});
