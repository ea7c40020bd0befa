// The command line: what parses, what is a mistake (exit 2, with a usage hint), and the exit codes
// of the built file itself.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, parseCommandLine, parseVersion } from "./args";
import { UsageError } from "./errors";
import { buildCliForTest, closedPort, runBuilt, runInProcess } from "../test/run";
import { CLI_VERSION } from "./version";

describe("parsing", () => {
  it("takes each command's flags and arguments", () => {
    const parsed = parseCommandLine(["deploy", "public", "--site", "abcde", "--draft", "-m", "Fix typo", "--json"]);
    expect(parsed).toMatchObject({
      kind: "command",
      command: { name: "deploy" },
      positionals: ["public"],
      values: { site: "abcde", draft: true, message: "Fix typo", json: true },
    });
    expect(parseCommandLine(["rollback", "abcde"])).toMatchObject({ kind: "command", positionals: ["abcde"] });
    expect(parseCommandLine(["deploy", "--site=abcde"])).toMatchObject({ values: { site: "abcde" } });
  });

  it("answers --help and --version, for berth and for each command", () => {
    expect(parseCommandLine([])).toEqual({ kind: "help" });
    expect(parseCommandLine(["--help"])).toEqual({ kind: "help" });
    expect(parseCommandLine(["--version"])).toEqual({ kind: "version" });
    expect(parseCommandLine(["deploy", "--help"])).toMatchObject({ kind: "help", command: { name: "deploy" } });
    expect(parseCommandLine(["help", "rollback"])).toMatchObject({ kind: "help", command: { name: "rollback" } });
  });

  it.each([
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["--nope"], "unknown option --nope"],
    [["deploy", "--nope"], "unknown option --nope"],
    [["deploy", "--site"], "--site needs a value"],
    [["deploy", "a", "b"], 'unexpected argument "b"'],
    [["deploys"], "missing SITE"],
    [["promote", "abcde"], "missing VERSION"],
    [["logout", "--draft"], "unknown option --draft"],
    [["login", "--token=abc"], "--token takes no value"],
  ])("%j is a usage error: %s", (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  it("reads versions as whole numbers from 1 (a leading v allowed)", () => {
    expect(parseVersion("3", "promote")).toBe(3);
    expect(parseVersion("v12", "promote")).toBe(12);
    for (const bad of ["0", "-1", "1.5", "latest", ""]) expect(() => parseVersion(bad, "promote")).toThrow(UsageError);
  });

  it("documents every option it accepts", () => {
    for (const command of COMMANDS) {
      for (const name of Object.keys(command.options)) {
        expect(
          command.help.some(([flag]) => flag.includes(`--${name}`)),
          `${command.name} --${name}`,
        ).toBe(true);
      }
    }
  });
});

describe("exit codes, in process", () => {
  it("2 for a mistyped command line, with the reason and the command's usage on stderr, nothing on stdout", async () => {
    const result = await runInProcess(["deploy", "--stie", "abcde"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "berth: unknown option --stie\nUsage: berth deploy [dir] [options] (berth deploy --help for more)\n",
    });
    const unknown = await runInProcess(["depoly"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('berth: unknown command "depoly"\nRun berth --help for the commands.\n');
    expect((await runInProcess(["promote", "abcde", "latest"])).code).toBe(2);
  });

  it("1 for what cannot be done, on one line", async () => {
    const result = await runInProcess(["sites"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("berth sites: no server chosen: run berth login --server https://your-berth-server, or set BERTH_SERVER\n");
    const noToken = await runInProcess(["sites"], { env: { BERTH_SERVER: "https://berth.example" } });
    expect(noToken.stderr).toBe("berth sites: not signed in to https://berth.example: run berth login, or set BERTH_TOKEN\n");
  });

  it("0 for help and version, on stdout", async () => {
    const help = await runInProcess(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: berth <command> [options]");
    for (const command of COMMANDS) expect(help.stdout).toContain(`  ${command.name} `);
    expect(await runInProcess(["--version"])).toEqual({ code: 0, stdout: `${CLI_VERSION}\n`, stderr: "" });
    expect((await runInProcess(["deploy", "-h"])).stdout).toContain("--create NAME");
  });
});

describe("the built file", () => {
  let berth: string;
  beforeAll(() => {
    berth = buildCliForTest();
  });

  it("exits 0, 1 and 2 as run() says, with the same streams", async () => {
    expect(await runBuilt(berth, ["--version"])).toEqual({ code: 0, stdout: `${CLI_VERSION}\n`, stderr: "" });
    const usage = await runBuilt(berth, ["deploy", "--nope"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("berth: unknown option --nope");
    const port = await closedPort();
    const unreachable = await runBuilt(berth, ["sites"], { env: { BERTH_SERVER: `http://127.0.0.1:${port}`, BERTH_TOKEN: "berth_x" } });
    expect(unreachable).toEqual({ code: 1, stdout: "", stderr: `berth sites: could not reach http://127.0.0.1:${port}: connection refused\n` });
  });

  it("leaves the lazy parts of Node's built-ins unloaded: undici, http2 and zlib are 40-50 ms of a start on Node 24", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "berth-cli-modules-"));
    const probe = path.join(dir, "probe.cjs");
    const list = path.join(dir, "modules.txt");
    writeFileSync(probe, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));`);
    const result = await runBuilt(berth, ["--version"], { env: { NODE_OPTIONS: `--require ${probe}` } });
    expect(result.code).toBe(0);
    const loaded = readFileSync(list, "utf8").split("\n");
    expect(loaded).toContain("NativeModule http");
    expect(loaded.filter((name) => /undici|http2|zlib/.test(name))).toEqual([]);
  });

  it("has no dependency: one file that imports only Node's built-ins", async () => {
    const source = readFileSync(berth, "utf8");
    const imports = [...source.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]);
    expect(imports.filter((name) => !name!.startsWith("node:"))).toEqual([]);
    expect(source).not.toMatch(/\bzod\b/);
    expect(source.length).toBeLessThan(150_000);
  });
});
