import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rememberedSite, rememberSite } from "./siteCache";

const home = () => ({ HOME: mkdtempSync(path.join(os.tmpdir(), "berth-site-cache-")) });
const site = (n: number) => ({ id: `id-${n}`, subdomain: `site${n}`, url: `http://site${n}.example/` });

describe("the remembered sites", () => {
  it("keeps a site per server and name (case aside), owner-only", () => {
    const env = home();
    expect(rememberedSite(env, "https://a.example", "blue")).toBeUndefined();
    rememberSite(env, "https://a.example", "Blue", site(1));
    rememberSite(env, "https://b.example", "blue", site(2));
    expect(rememberedSite(env, "https://a.example", "blue ")).toEqual(site(1));
    expect(rememberedSite(env, "https://b.example", "BLUE")).toEqual(site(2));
    expect(rememberedSite(env, "https://a.example", "green")).toBeUndefined();
    rememberSite(env, "https://a.example", "blue", site(3));
    expect(rememberedSite(env, "https://a.example", "blue")).toEqual(site(3));
    expect(statSync(path.join(env.HOME, ".cache", "berth", "sites.json")).mode & 0o777).toBe(0o600);
  });

  it("forgets the oldest past 200, and ignores a damaged or foreign file", () => {
    const env = home();
    for (let n = 0; n < 205; n++) rememberSite(env, "https://a.example", `s${n}`, site(n));
    expect(rememberedSite(env, "https://a.example", "s4")).toBeUndefined();
    expect(rememberedSite(env, "https://a.example", "s5")).toEqual(site(5));
    const file = path.join(env.HOME, ".cache", "berth", "sites.json");
    expect((JSON.parse(readFileSync(file, "utf8")) as { sites: unknown[] }).sites).toHaveLength(200);
    for (const damaged of ["{", JSON.stringify({ version: 2, sites: [] }), JSON.stringify({ version: 1, sites: [["k", 1, "x", "y"]] })]) {
      writeFileSync(file, damaged);
      expect(rememberedSite(env, "https://a.example", "s5")).toBeUndefined();
    }
  });

  it("is only a cache: a folder it cannot write to costs nothing", () => {
    const env = home();
    mkdirSync(path.join(env.HOME, ".cache"));
    writeFileSync(path.join(env.HOME, ".cache", "berth"), "a file where the folder would be");
    expect(() => rememberSite(env, "https://a.example", "blue", site(1))).not.toThrow();
    expect(rememberedSite(env, "https://a.example", "blue")).toBeUndefined();
  });
});
