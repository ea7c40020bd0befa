// BERTH_PLANS_FILE's checks: a good file gives the catalogue, and every kind of mistake is listed
// at its place in the file, all of them at once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../common/uploads";
import { EnvError, loadEnv } from "../env";
import { BUILT_IN_PLANS, FREE_PLAN } from "./builtIn";
import { loadPlansFile, parsePlansFile } from "./file";

const MB = 1024 * 1024;

const GOOD = {
  plans: [
    {
      id: "free",
      name: "Free",
      price: "$0",
      priceNote: "forever",
      default: true,
      limits: { storageBytes: 100 * MB, maxFileBytes: 10 * MB, deploymentsKept: 5 },
    },
    {
      id: "team-plus",
      name: "Team",
      price: "€12",
      description: "For teams.",
      limits: { storageBytes: null, maxFileBytes: null, deploymentsKept: null },
      features: { customDomains: true, fileVersioning: true },
    },
  ],
  upgradeTo: "team-plus",
};

/** GOOD with `change` applied to a deep copy. */
function goodWith(change: (file: typeof GOOD & Record<string, unknown>) => void): string {
  const copy = structuredClone(GOOD) as typeof GOOD & Record<string, unknown>;
  change(copy);
  return JSON.stringify(copy);
}

const problemsOf = (source: string) => parsePlansFile(source).problems;

describe("parsePlansFile", () => {
  it("turns a good file into the catalogue: labels, limits with null for none, features with the unlisted ones off", () => {
    const result = parsePlansFile(JSON.stringify(GOOD));
    expect(result.problems).toEqual([]);
    expect(result.catalog).toEqual({
      defaultPlan: "free",
      upgradeTo: "team-plus",
      plans: [
        {
          id: "free",
          name: "Free",
          price: "$0",
          priceNote: "forever",
          description: null,
          storageBytes: 100 * MB,
          maxFileBytes: 10 * MB,
          deploymentsKept: 5,
          customDomains: false,
          passwordProtection: false,
          expiringLinks: false,
          privateSites: false,
          siteExpiry: false,
          fileVersioning: false,
          pointInTimeRecovery: false,
        },
        {
          id: "team-plus",
          name: "Team",
          price: "€12",
          priceNote: null,
          description: "For teams.",
          storageBytes: null,
          maxFileBytes: null,
          deploymentsKept: null,
          customDomains: true,
          passwordProtection: false,
          expiringLinks: false,
          privateSites: false,
          siteExpiry: false,
          fileVersioning: true,
          pointInTimeRecovery: false,
        },
      ],
    });
  });

  it("takes upgradeTo null: no plan is offered", () => {
    expect(parsePlansFile(goodWith((f) => Object.assign(f, { upgradeTo: null }))).catalog?.upgradeTo).toBeNull();
  });

  it.each([
    ["text that is not JSON", "{ plans: [", /^\(the file\): is not valid JSON: /],
    ["a list instead of an object", "[]", /^\(the file\): must be an object with "plans" and "upgradeTo"$/],
    ["no plans", goodWith((f) => Object.assign(f, { plans: [] })), /^plans: must list at least one plan$/],
    ["five plans", goodWith((f) => f.plans.push(...[1, 2, 3].map((n) => ({ ...f.plans[1]!, id: `p${n}` })))), /^plans: must list at most 4 plans$/],
    ["a missing upgradeTo", goodWith((f) => delete (f as Record<string, unknown>).upgradeTo), /^upgradeTo: is required$/],
    ["an unknown top-level field", goodWith((f) => (f.plan = [])), /^plan: is not a field a plans file has \(check its spelling\)$/],
    [
      "a plan that is not an object",
      goodWith((f) => Object.assign(f, { upgradeTo: null, plans: [f.plans[0], "pro"] })),
      /^plans\[1\]: must be an object with id, name, price and limits$/,
    ],
    ["an id with capitals", goodWith((f) => (f.plans[0]!.id = "Free")), /^plans\[0\]\.id: must be 1 to 32 lower-case letters, digits or hyphens/],
    ["an empty name", goodWith((f) => (f.plans[0]!.name = " ")), /^plans\[0\]\.name: must be text of 1 to 40 characters$/],
    ["a missing price", goodWith((f) => delete (f.plans[0] as Record<string, unknown>).price), /^plans\[0\]\.price: is required$/],
    [
      "a price that is a number",
      goodWith((f) => ((f.plans[0] as Record<string, unknown>).price = 5)),
      /^plans\[0\]\.price: must be text of 1 to 24 characters$/,
    ],
    [
      "a missing limit",
      goodWith((f) => delete (f.plans[1]!.limits as Record<string, unknown>).deploymentsKept),
      /^plans\[1\]\.limits\.deploymentsKept: is required$/,
    ],
    [
      "a size written as text",
      goodWith((f) => ((f.plans[1]!.limits as Record<string, unknown>).storageBytes = "5 GB")),
      /^plans\[1\]\.limits\.storageBytes: must be a positive integer or null \(unlimited\)$/,
    ],
    [
      "a limit of 0",
      goodWith((f) => (f.plans[0]!.limits.maxFileBytes = 0)),
      /^plans\[0\]\.limits\.maxFileBytes: must be a positive integer or null \(unlimited\)$/,
    ],
    [
      "a fraction",
      goodWith((f) => (f.plans[0]!.limits.deploymentsKept = 2.5)),
      /^plans\[0\]\.limits\.deploymentsKept: must be a positive integer or null \(unlimited\)$/,
    ],
    [
      "a misspelt limit",
      goodWith((f) => ((f.plans[0]!.limits as Record<string, unknown>).storage = 1)),
      /^plans\[0\]\.limits\.storage: is not a field a plans file has \(limits: storageBytes, maxFileBytes, deploymentsKept\)$/,
    ],
    [
      "a misspelt feature",
      goodWith((f) => ((f.plans[1]!.features as Record<string, unknown>).customDomain = true)),
      /^plans\[1\]\.features\.customDomain: is not a field a plans file has \(features: customDomains, /,
    ],
    [
      "a feature that is not a switch",
      goodWith((f) => ((f.plans[1]!.features as Record<string, unknown>).customDomains = "yes")),
      /^plans\[1\]\.features\.customDomains: must be true or false$/,
    ],
    [
      "a repeated id",
      goodWith((f) => Object.assign(f, { upgradeTo: null, plans: [f.plans[0], { ...f.plans[1], id: "free" }] })),
      /^plans\[1\]\.id: "free" is already the id of plans\[0\]$/,
    ],
    [
      "no default plan",
      goodWith((f) => delete (f.plans[0] as Record<string, unknown>).default),
      /^plans: one plan must have "default": true, the plan new accounts start on$/,
    ],
    [
      "two default plans",
      goodWith((f) => ((f.plans[1] as Record<string, unknown>).default = true)),
      /^plans: only one plan may have "default": true, and plans\[0\], plans\[1\] have it$/,
    ],
    [
      "an upgradeTo that names no plan",
      goodWith((f) => (f.upgradeTo = "gold")),
      /^upgradeTo: "gold" is not the id of a plan in the file \(ids: free, team-plus\)$/,
    ],
    ["an upgradeTo that is the default plan", goodWith((f) => (f.upgradeTo = "free")), /^upgradeTo: must be a plan listed after the default plan/],
    [
      "a file limit over the storage",
      goodWith((f) => (f.plans[0]!.limits.maxFileBytes = 200 * MB)),
      /^plans\[0\]\.limits\.maxFileBytes: must not be more than limits\.storageBytes/,
    ],
    [
      "a count of kept versions beside file versioning",
      goodWith((f) => ((f.plans[1]!.limits as Record<string, unknown>).deploymentsKept = 3)),
      /^plans\[1\]\.limits\.deploymentsKept: must be null when features\.fileVersioning is true/,
    ],
    [
      "every version kept without file versioning",
      goodWith((f) => ((f.plans[0]!.limits as Record<string, unknown>).deploymentsKept = null)),
      /^plans\[0\]\.limits\.deploymentsKept: must be a number unless features\.fileVersioning is true/,
    ],
  ])("lists %s with its path", (_what, source, problem) => {
    const result = parsePlansFile(source);
    expect(result.catalog).toBeUndefined();
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(problem);
  });

  it("lists several problems at once, each at its place, the shape's and the rules between fields alike", () => {
    const problems = problemsOf(
      JSON.stringify({
        plans: [
          { id: "free", name: "Free", price: "$0", limits: { storageBytes: -1, maxFileBytes: 10, deploymentsKept: 3 }, colour: "red" },
          { id: "free", name: "Pro", price: "", limits: { storageBytes: 100, maxFileBytes: 1000, deploymentsKept: 1 } },
        ],
        upgradeTo: "gold",
      }),
    );
    expect(problems).toEqual([
      "plans[0].limits.storageBytes: must be a positive integer or null (unlimited)",
      "plans[0].colour: is not a field a plans file has (check its spelling)",
      "plans[1].price: must be text of 1 to 24 characters",
      'plans[1].id: "free" is already the id of plans[0]',
      'plans: one plan must have "default": true, the plan new accounts start on',
      "plans[1].limits.maxFileBytes: must not be more than limits.storageBytes, or no such file could ever be uploaded",
      'upgradeTo: "gold" is not the id of a plan in the file (ids: free)',
    ]);
  });

  it("reads the README's example file as it is written there", () => {
    const readme = readFileSync(path.join(__dirname, "../../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Your own plans"));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const result = parsePlansFile(example!);
    expect(result.problems).toEqual([]);
    expect(result.catalog?.plans.map((plan) => plan.id)).toEqual(["free", "pro", "business"]);
  });
});

describe("BERTH_PLANS_FILE", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-plans-file-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const env = (settings: Record<string, string>) => ({ BERTH_DATA_DIR: scratch, ...settings });

  it("gives the built-in Free and Pro while unset, Free the dashboard's first guess at a file's limit", () => {
    expect(loadEnv(env({}), []).plans).toBe(BUILT_IN_PLANS);
    expect(BUILT_IN_PLANS.plans.map((plan) => plan.id)).toEqual(["free", "pro"]);
    expect(BUILT_IN_PLANS.defaultPlan).toBe("free");
    expect(BUILT_IN_PLANS.upgradeTo).toBe("pro");
    expect(parsePlansFile(JSON.stringify({ plans: [], upgradeTo: null })).problems).not.toEqual([]);
    expect(MAX_UPLOAD_BYTES).toBe(FREE_PLAN.maxFileBytes);
  });

  it("loads the operator's plans", () => {
    const file = path.join(scratch, "good.json");
    writeFileSync(file, JSON.stringify(GOOD));
    expect(loadEnv(env({ BERTH_PLANS_FILE: file }), []).plans.plans.map((plan) => plan.name)).toEqual(["Free", "Team"]);
  });

  it("joins the file's problems to the settings' one list, each named with the setting", () => {
    const file = path.join(scratch, "bad.json");
    writeFileSync(
      file,
      goodWith((f) => ((f.plans[1]!.limits as Record<string, unknown>).storageBytes = 0)),
    );
    let error: unknown;
    try {
      loadEnv(env({ BERTH_PLANS_FILE: file, PORT: "nope" }), []);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems;
    expect(problems).toContain("BERTH_PLANS_FILE: plans[1].limits.storageBytes: must be a positive integer or null (unlimited)");
    expect(problems.some((p) => p.startsWith("PORT:"))).toBe(true);
    expect((error as EnvError).message).toContain("Berth cannot start; fix these settings:");
  });

  it("says so when the file cannot be read", () => {
    const missing = path.join(scratch, "missing.json");
    expect(loadPlansFile(missing).problems).toEqual([`cannot read ${missing}: there is no such file`]);
  });
});
