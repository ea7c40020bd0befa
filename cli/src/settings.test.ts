// Where the server, token and site come from: flags, then the environment, then berth.json, then
// the config file that berth login writes; and the config's token only ever goes to its server.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configPath, readUserConfig, writeUserConfig } from "./config";
import { normalizeServer, resolveSettings, type SettingsInput } from "./settings";

const root = mkdtempSync(path.join(os.tmpdir(), "berth-cli-settings-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A folder with this berth.json (or none), and a config file with these contents (or none). */
function setup(project?: object, config?: object): { dir: string; configFile: string } {
  const dir = path.join(root, `case-${++n}`);
  mkdirSync(dir, { recursive: true });
  if (project) writeFileSync(path.join(dir, "berth.json"), JSON.stringify(project));
  const configFile = path.join(dir, "config", "berth", "config.json");
  if (config) writeUserConfig(configFile, config);
  return { dir, configFile };
}

const input = (s: { dir: string; configFile: string }, flags: SettingsInput["flags"] = {}, env: NodeJS.ProcessEnv = {}): SettingsInput => ({
  flags,
  env,
  projectDirs: [s.dir],
  configFile: s.configFile,
});

const CONFIG = { server: "https://config.example", token: "berth_config" };
const PROJECT = { server: "https://project.example", site: "project-site" };
const ENV = { BERTH_SERVER: "https://env.example", BERTH_TOKEN: "berth_env", BERTH_SITE: "env-site" };

describe("settings precedence", () => {
  it("flags first", () => {
    const s = setup(PROJECT, CONFIG);
    const settings = resolveSettings(input(s, { server: "https://flag.example", site: "flag-site" }, ENV));
    expect(settings).toMatchObject({ server: "https://flag.example", token: "berth_env", site: "flag-site" });
    expect(settings.sources).toEqual({ server: "--server", token: "BERTH_TOKEN", site: "--site" });
  });

  it("then the environment", () => {
    const s = setup(PROJECT, CONFIG);
    expect(resolveSettings(input(s, {}, ENV))).toMatchObject({ server: "https://env.example", token: "berth_env", site: "env-site" });
  });

  it("then berth.json (which never gives a token)", () => {
    const s = setup({ ...PROJECT, token: "berth_in_a_repository" }, CONFIG);
    const settings = resolveSettings(input(s));
    expect(settings).toMatchObject({ server: "https://project.example", site: "project-site" });
    // The config's token belongs to another server: it is not sent to this one.
    expect(settings.token).toBeUndefined();
  });

  it("then the config file, whose token goes with its own server", () => {
    const s = setup(undefined, CONFIG);
    expect(resolveSettings(input(s))).toMatchObject({ server: "https://config.example", token: "berth_config", site: undefined });
    // The same server spelled another way still matches.
    expect(resolveSettings(input(s, { server: "config.example/" })).token).toBe("berth_config");
    expect(resolveSettings(input(s, {}, { BERTH_SERVER: "https://other.example" })).token).toBeUndefined();
  });

  it("treats empty values as unset", () => {
    const s = setup(undefined, CONFIG);
    const settings = resolveSettings(input(s, { server: "" }, { BERTH_SERVER: " ", BERTH_TOKEN: "", BERTH_SITE: "" }));
    expect(settings).toMatchObject({ server: "https://config.example", token: "berth_config", site: undefined });
  });

  it("reads berth.json from the first folder that has one", () => {
    const outer = setup({ site: "outer" });
    const inner = setup();
    expect(resolveSettings({ ...input(inner), projectDirs: [inner.dir, outer.dir] }).site).toBe("outer");
    const both = setup({ site: "inner" });
    expect(resolveSettings({ ...input(both), projectDirs: [both.dir, outer.dir] }).site).toBe("inner");
  });

  it("says which file is wrong, and how", () => {
    const broken = setup();
    writeFileSync(path.join(broken.dir, "berth.json"), "{ site: nope");
    expect(() => resolveSettings(input(broken))).toThrow(/berth\.json is not valid JSON/);
    const wrongType = setup({ site: 42 });
    expect(() => resolveSettings(input(wrongType))).toThrow(/"site" must be a non-empty string/);
    expect(() => resolveSettings(input(setup(), { server: "ftp://x.example" }))).toThrow(
      /--server: the server address must start with https:\/\/ or http:\/\//,
    );
  });
});

describe("server addresses", () => {
  it.each([
    ["https://berth.example.com", "https://berth.example.com"],
    ["https://berth.example.com/", "https://berth.example.com"],
    ["berth.example.com", "https://berth.example.com"],
    ["HTTP://LOCALHOST:8080/", "http://localhost:8080"],
    ["https://example.com/berth/", "https://example.com/berth"],
  ])("%s → %s", (given, expected) => {
    expect(normalizeServer(given, "--server")).toBe(expected);
  });
});

describe("the config file", () => {
  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configPath({ XDG_CONFIG_HOME: "/xdg", HOME: "/home/ada" })).toBe("/xdg/berth/config.json");
    expect(configPath({ HOME: "/home/ada" })).toBe("/home/ada/.config/berth/config.json");
    // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
    expect(configPath({ XDG_CONFIG_HOME: "relative", HOME: "/home/ada" })).toBe("/home/ada/.config/berth/config.json");
  });

  it("is written owner-only in an owner-only folder, even over a looser one", () => {
    const s = setup();
    mkdirSync(path.dirname(s.configFile), { recursive: true, mode: 0o755 });
    writeFileSync(s.configFile, "{}", { mode: 0o644 });
    writeUserConfig(s.configFile, { server: "https://a.example", token: "berth_x" });
    expect(statSync(s.configFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(s.configFile)).mode & 0o777).toBe(0o700);
    expect(readUserConfig(s.configFile)).toEqual({ server: "https://a.example", token: "berth_x" });
    expect(readUserConfig(path.join(s.dir, "missing.json"))).toEqual({});
  });
});
