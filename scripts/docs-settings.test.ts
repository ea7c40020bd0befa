// The settings are documented once (common/settings.ts); these hold server/env.ts and the
// README's table to that list.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES } from "../server/env";
import { SETTINGS } from "../common/settings";
import { README, readmeWithSettings } from "./docs-settings";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const documented = SETTINGS.flatMap((setting) => setting.names);

describe("the settings' documentation", () => {
  it("names every variable env.ts parses, once, and no other", () => {
    expect([...documented].sort()).toEqual(Object.keys(ENV_VARIABLES).sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it("gives the default env.ts applies, where env.ts has a plain one", () => {
    for (const setting of SETTINGS) {
      for (const name of setting.names) {
        const parsed = ENV_VARIABLES[name as keyof typeof ENV_VARIABLES].parse(undefined);
        if (parsed === undefined) continue;
        expect(setting.default, `${name}'s default should start with \`${parsed}\``).toMatch(new RegExp(`^\`${escapeRegExp(String(parsed))}\``));
      }
    }
  });

  it("is the README's table (else run npm run docs:settings)", async () => {
    const readme = readFileSync(README, "utf8");
    expect(await readmeWithSettings(readme), "README.md's settings table is stale: run npm run docs:settings").toBe(readme);
  });
});
