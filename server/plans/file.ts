// BERTH_PLANS_FILE: the operator's own plans, as JSON. Read once at startup (server/env.ts), so a
// mistake in it stops Berth with every problem listed, each at its place in the file
// ("plans[1].limits.storageBytes: …"), instead of surfacing as a wrong limit on some upload.
//
// {
//   "plans": [
//     { "id": "free", "name": "Free", "price": "$0", "priceNote": "forever", "default": true,
//       "limits": { "storageBytes": 524288000, "maxFileBytes": 52428800, "deploymentsKept": 10 } },
//     { "id": "pro", "name": "Pro", "price": "$9", "priceNote": "per month",
//       "limits": { "storageBytes": null, "maxFileBytes": 262144000, "deploymentsKept": null },
//       "features": { "customDomains": true, "fileVersioning": true } }
//   ],
//   "upgradeTo": "pro"
// }
//
// Plans are listed smallest first, as the pages list them. Every limit must be given, a number of
// bytes (or deployments) or null for none; a feature left out is off. deploymentsKept is null
// exactly when fileVersioning is on (keeping every deployment is file versioning). Exactly one plan is the
// `default` every new account starts on; `upgradeTo` names the plan 'Upgrade' offers (null: none).
import { readFileSync } from "node:fs";
import { z } from "zod";
import { PLAN_FEATURES, PLAN_LIMITS, type Plan, type PlanCatalog, type PlanFeature } from "../../common/plans";

/** The pricing page lays plans side by side: more than this no longer fits a row. */
export const MAX_PLANS = 4;

const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
const ID_RULE = "must be 1 to 32 lower-case letters, digits or hyphens, not starting with a hyphen";

/** "is required" for a missing key, else what the value must be. */
const must = (message: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : message) });

const text = (max: number) =>
  z
    .string(must(`must be text of 1 to ${max} characters`))
    .trim()
    .min(1, `must be text of 1 to ${max} characters`)
    .max(max, `must be text of 1 to ${max} characters`);

const LIMIT_RULE = "must be a positive integer or null (unlimited)";
const limit = z.number(must(LIMIT_RULE)).int(LIMIT_RULE).positive(LIMIT_RULE).nullable();

const Limits = z.strictObject(
  { storageBytes: limit, maxFileBytes: limit, deploymentsKept: limit } satisfies Record<(typeof PLAN_LIMITS)[number], unknown>,
  must(`must be an object with ${PLAN_LIMITS.join(", ")}`),
);

const Features = z.strictObject(
  Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, z.boolean(must("must be true or false")).optional()])) as Record<
    PlanFeature,
    z.ZodOptional<z.ZodBoolean>
  >,
  must(`must be an object of switches (${PLAN_FEATURES.join(", ")})`),
);

const PlanEntry = z.strictObject(
  {
    id: z.string(must(ID_RULE)).regex(ID_PATTERN, ID_RULE),
    name: text(40),
    price: text(24),
    priceNote: text(40).optional(),
    description: text(160).optional(),
    default: z.boolean(must("must be true or false")).optional(),
    limits: Limits,
    features: Features.optional(),
  },
  must("must be an object with id, name, price and limits"),
);

const PlansFile = z.strictObject(
  {
    plans: z
      .array(PlanEntry, must("must be a list of plans"))
      .min(1, "must list at least one plan")
      .max(MAX_PLANS, `must list at most ${MAX_PLANS} plans`),
    upgradeTo: z.string(must("must be the id of a plan, or null (no upgrade is offered)")).nullable(),
  },
  must('must be an object with "plans" and "upgradeTo"'),
);

/** `plans[1].limits.storageBytes` from zod's path. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("");
}

function issueLines(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const where = pathOf(issue.path);
    if (issue.code === "unrecognized_keys") {
      const known = where.endsWith(".features") ? PLAN_FEATURES : where.endsWith(".limits") ? PLAN_LIMITS : undefined;
      const hint = known ? `(${where.endsWith(".features") ? "features" : "limits"}: ${known.join(", ")})` : "(check its spelling)";
      return issue.keys.map((key) => `${where ? `${where}.` : ""}${key}: is not a field a plans file has ${hint}`);
    }
    return [`${where || "(the file)"}: ${issue.message}`];
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isLimit = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/**
 * The rules between fields, judged on whatever the file holds, so they join the list even when
 * the shape has problems elsewhere.
 */
function crossProblems(raw: unknown): string[] {
  if (!isRecord(raw) || !Array.isArray(raw.plans)) return [];
  // An empty list is one problem (the shape's), not also a missing default and upgrade.
  if (raw.plans.length === 0) return [];
  const problems: string[] = [];
  const entries = raw.plans.map((entry, index) => ({ index, entry: isRecord(entry) ? entry : {} }));
  const firstWithId = new Map<string, number>();
  for (const { index, entry } of entries) {
    if (typeof entry.id !== "string") continue;
    const earlier = firstWithId.get(entry.id);
    if (earlier === undefined) firstWithId.set(entry.id, index);
    else problems.push(`plans[${index}].id: "${entry.id}" is already the id of plans[${earlier}]`);
  }
  const defaults = entries.filter(({ entry }) => entry.default === true).map(({ index }) => `plans[${index}]`);
  if (defaults.length === 0) problems.push('plans: one plan must have "default": true, the plan new accounts start on');
  if (defaults.length > 1) problems.push(`plans: only one plan may have "default": true, and ${defaults.join(", ")} have it`);
  for (const { index, entry } of entries) {
    const limits = isRecord(entry.limits) ? entry.limits : {};
    const features = isRecord(entry.features) ? entry.features : {};
    if (isLimit(limits.maxFileBytes) && isLimit(limits.storageBytes) && limits.maxFileBytes > limits.storageBytes) {
      problems.push(`plans[${index}].limits.maxFileBytes: must not be more than limits.storageBytes, or no such file could ever be uploaded`);
    }
    // Keeping every deployment is what file versioning is, so the two say one thing.
    if (features.fileVersioning === true && limits.deploymentsKept !== null && limits.deploymentsKept !== undefined) {
      problems.push(`plans[${index}].limits.deploymentsKept: must be null when features.fileVersioning is true, which keeps every version`);
    }
    if (features.fileVersioning !== true && limits.deploymentsKept === null) {
      problems.push(
        `plans[${index}].limits.deploymentsKept: must be a number unless features.fileVersioning is true (null keeps every version, which is file versioning)`,
      );
    }
  }
  if (typeof raw.upgradeTo === "string") {
    const target = firstWithId.get(raw.upgradeTo);
    const start = defaults.length === 1 ? entries.find(({ entry }) => entry.default === true) : undefined;
    if (target === undefined) {
      problems.push(`upgradeTo: "${raw.upgradeTo}" is not the id of a plan in the file (ids: ${[...firstWithId.keys()].join(", ") || "none"})`);
    } else if (start && target <= start.index) {
      problems.push(
        `upgradeTo: must be a plan listed after the default plan (plans are listed smallest first), or new accounts are never offered it`,
      );
    }
  }
  return problems;
}

function planOf(entry: z.infer<typeof PlanEntry>): Plan {
  const features = entry.features ?? {};
  return {
    id: entry.id,
    name: entry.name,
    price: entry.price,
    priceNote: entry.priceNote ?? null,
    description: entry.description ?? null,
    storageBytes: entry.limits.storageBytes,
    maxFileBytes: entry.limits.maxFileBytes,
    deploymentsKept: entry.limits.deploymentsKept,
    ...(Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, features[feature] ?? false])) as Record<PlanFeature, boolean>),
  };
}

export type PlansFileResult = { catalog: PlanCatalog; problems: [] } | { catalog: undefined; problems: string[] };

/** The catalogue a plans file's text defines, or every problem in it, each with its path. */
export function parsePlansFile(source: string): PlansFileResult {
  let raw: unknown;
  try {
    raw = JSON.parse(source);
  } catch (error) {
    return { catalog: undefined, problems: [`(the file): is not valid JSON: ${(error as Error).message}`] };
  }
  const parsed = PlansFile.safeParse(raw);
  const problems = [...(parsed.success ? [] : issueLines(parsed.error)), ...crossProblems(raw)];
  if (!parsed.success || problems.length > 0) return { catalog: undefined, problems };
  const plans = parsed.data.plans.map(planOf);
  const defaultPlan = parsed.data.plans.find((entry) => entry.default === true)!.id;
  return { catalog: { plans, defaultPlan, upgradeTo: parsed.data.upgradeTo }, problems: [] };
}

/** Reads and checks the file at `file`; a file that cannot be read is one problem. */
export function loadPlansFile(file: string): PlansFileResult {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "there is no such file" : code === "EACCES" ? "permission denied" : (error as Error).message;
    return { catalog: undefined, problems: [`cannot read ${file}: ${why}`] };
  }
  return parsePlansFile(source);
}
