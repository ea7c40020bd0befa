// No promise without code behind it. The landing page (features, pricing, FAQ) and the docs are
// read as a browser renders them, and every feature they name must have something real behind
// it: a route in the API the server itself documents, a setting with the default the page
// implies, a dashboard screen, a docs section or a file. A feature card or a pricing line that
// names nothing on the list below fails the test, so a new promise needs its evidence first.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ROUTES } from "../common/routes";
import { SETTINGS } from "../common/settings";
import { root, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";

type Evidence =
  /** "METHOD /api/path/:param", present in the server's own /api/openapi.json. */
  | { route: string }
  /** A setting the operator can set, and (when given) the start of its documented default. */
  | { setting: string; byDefault?: string }
  /** A dashboard path with a screen. */
  | { screen: string }
  /** An element with this id on the docs page. */
  | { docs: string }
  /** A file in the repository. */
  | { file: string };

interface Feature {
  /** What the pages say when they promise it. */
  says: RegExp;
  backedBy: Evidence[];
}

const FEATURES: Feature[] = [
  { says: /restore a single file|restore (?:it|them|any)/i, backedBy: [{ route: "POST /api/sites/:siteId/history/restore" }] },
  {
    says: /point-in-time/i,
    backedBy: [{ route: "POST /api/sites/:siteId/history/restore-at" }, { route: "GET /api/sites/:siteId/history/live-periods" }],
  },
  {
    says: /versioning|file history|every version|versions? (?:are )?kept/i,
    backedBy: [{ route: "GET /api/sites/:siteId/history" }, { route: "GET /api/sites/:siteId/compare" }],
  },
  { says: /roll ?backs?|roll back/i, backedBy: [{ route: "POST /api/sites/:siteId/deployments/:deploymentId/rollback" }] },
  { says: /backups?|backed up/i, backedBy: [{ setting: "BERTH_BACKUP_DAILY", byDefault: "`true`" }, { file: "server/backup/daily.ts" }] },
  { says: /\bCDNs?\b/, backedBy: [{ docs: "cdn" }, { route: "POST /api/webhooks" }] },
  { says: /custom domains?/i, backedBy: [{ route: "POST /api/sites/:siteId/domains" }, { screen: "/dashboard/domains" }] },
  { says: /password/i, backedBy: [{ route: "PUT /api/sites/:siteId/password" }] },
  { says: /expir(?:y|ing|es)/i, backedBy: [{ route: "PATCH /api/sites/:siteId/schedule" }, { route: "POST /api/sites/:siteId/share-links" }] },
  {
    says: /private (?:links?|sites?)|view limit|revoke any link/i,
    backedBy: [{ route: "POST /api/sites/:siteId/share-links" }, { route: "PUT /api/sites/:siteId/visibility" }],
  },
  { says: /webhooks?/i, backedBy: [{ route: "POST /api/webhooks" }, { docs: "webhooks" }] },
  { says: /API tokens?/i, backedBy: [{ route: "POST /api/tokens" }, { screen: "/dashboard/integrations" }] },
  { says: /OpenAPI/i, backedBy: [{ route: "GET /api/openapi.json" }, { screen: "/docs/api" }] },
  {
    says: /berth command|command line|from a terminal/i,
    backedBy: [{ file: "cli/package.json" }, { route: "POST /api/cli/login" }, { docs: "cli" }],
  },
  { says: /only what changed/i, backedBy: [{ route: "POST /api/sites/:siteId/deploys" }] },
  {
    says: /_redirects|_headers|SPA fallback|clean URLs|custom 404/i,
    backedBy: [{ file: "server/siteConfig/redirects.ts" }, { docs: "redirects-and-headers" }],
  },
  {
    says: /publish check|checked (?:after|before|as) it goes live|checks? every publish/i,
    backedBy: [{ route: "GET /api/sites/:siteId/deployments/:deploymentId/check" }],
  },
  { says: /add nodes|more than one machine|one machine is not enough/i, backedBy: [{ setting: "DATABASE_URL" }] },
  { says: /own server|self-host/i, backedBy: [{ docs: "self-hosting" }] },
  { says: /analytics|visitors/i, backedBy: [{ route: "GET /api/sites/:siteId/analytics" }] },
  { says: /subdomain/i, backedBy: [{ route: "POST /api/subdomains/reserve" }] },
  { says: /HTML|PDF|zip/i, backedBy: [{ route: "POST /api/sites/:siteId/files" }] },
  { says: /storage|files? up to|per file/i, backedBy: [{ file: "server/services/planPolicy.ts" }, { route: "GET /api/stats" }] },
  { says: /immutable snapshot|atomically|half-uploaded/i, backedBy: [{ file: "server/services/publishDeployment.ts" }] },
  { says: /notifications?/i, backedBy: [{ route: "GET /api/notifications" }] },
  // A plan's line that includes another plan's list, which is checked line by line itself.
  { says: /^Everything in \w+$/, backedBy: [{ file: "common/plans.ts" }] },
];

/**
 * Words no page may use: nothing behind them, or a promise put off. "Unlimited" is said only of a
 * limit the operator's plans leave unset (null in BERTH_PLANS_FILE), which the built-in plans never
 * do; the test below starts Berth with such a plan.
 */
const FORBIDDEN: RegExp[] = [/unlimited/i, /\bAI\b/, /coming soon/i, /on its way/i];

function evidenceHolds(evidence: Evidence, apiRoutes: Set<string>, docsIds: Set<string>): boolean {
  if ("route" in evidence) return apiRoutes.has(evidence.route);
  if ("setting" in evidence) {
    const setting = SETTINGS.find((s) => s.names.includes(evidence.setting));
    return setting !== undefined && (evidence.byDefault === undefined || setting.default.startsWith(evidence.byDefault));
  }
  if ("screen" in evidence) return (APP_ROUTES as readonly string[]).includes(evidence.screen);
  if ("docs" in evidence) return docsIds.has(evidence.docs);
  return existsSync(path.join(root, evidence.file));
}

/** The page's text once the server's plans are on it (`ready`), every FAQ answer included. */
async function textOf(page: Page, url: string, ready: string): Promise<string> {
  await page.goto(url);
  await page.locator("h1").first().waitFor();
  await page.locator(ready).first().waitFor();
  const text = [await page.locator("body").innerText()];
  // The FAQ shows one answer at a time: open each in turn and keep its text.
  const questions = page.locator("#faq h3 button");
  const count = await questions.count();
  for (let i = 0; i < count; i++) {
    await questions.nth(i).click();
    const answer = page.locator("#faq [role=region][data-state=open]");
    await answer.waitFor();
    text.push(await answer.innerText());
  }
  return text.join("\n");
}

describe("every promise on the marketing pages has code behind it", () => {
  let berth: Berth;
  let browser: Browser;
  let page: Page;
  let landing: string;
  let docs: string;
  let apiRoutes: Set<string>;
  let docsIds: Set<string>;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    page = await browser.newPage();
    landing = await textOf(page, berth.url, "#pricing li");
    docs = await textOf(page, `${berth.url}/docs`, "#limits table");
    docsIds = new Set(await page.locator("section[id]").evaluateAll((sections) => sections.map((s) => s.id)));
    const openapi = (await (await fetch(`${berth.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    apiRoutes = new Set(
      Object.entries(openapi.paths).flatMap(([route, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ":$1")}`),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  it("backs every feature the landing page and the docs name", () => {
    const unbacked = FEATURES.filter((f) => f.says.test(landing) || f.says.test(docs)).flatMap((f) =>
      f.backedBy.filter((e) => !evidenceHolds(e, apiRoutes, docsIds)).map((e) => `${String(f.says)} → ${JSON.stringify(e)}`),
    );
    expect(unbacked).toEqual([]);
  });

  it("knows every feature card and every pricing line", async () => {
    await page.goto(berth.url);
    await page.locator("#features h3").first().waitFor();
    const cards = await page.locator("#features h3").evaluateAll((titles) => titles.map((t) => t.parentElement?.innerText ?? ""));
    const lines = await page.locator("#pricing li").allInnerTexts();
    expect(cards.length).toBeGreaterThan(3);
    expect(lines.length).toBeGreaterThan(5);
    const unknown = [...cards, ...lines].filter((text) => !FEATURES.some((f) => f.says.test(text)));
    expect(unknown).toEqual([]);
  });

  it("uses no word that promises what nothing does", () => {
    const found = FORBIDDEN.filter((word) => word.test(landing) || word.test(docs)).map(String);
    expect(found).toEqual([]);
  });

  it("finds evidence missing when it is missing", () => {
    // The checks themselves can fail: a made-up route, setting default, screen and section.
    expect(evidenceHolds({ route: "POST /api/sites/:siteId/teleport" }, apiRoutes, docsIds)).toBe(false);
    expect(evidenceHolds({ setting: "BERTH_BACKUP_DAILY", byDefault: "`never`" }, apiRoutes, docsIds)).toBe(false);
    expect(evidenceHolds({ screen: "/dashboard/teleport" }, apiRoutes, docsIds)).toBe(false);
    expect(evidenceHolds({ docs: "teleport" }, apiRoutes, docsIds)).toBe(false);
    expect(evidenceHolds({ file: "server/teleport.ts" }, apiRoutes, docsIds)).toBe(false);
  });
});

describe("'Unlimited' on the pricing page", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-unlimited-"));
  let berth: Berth;
  let browser: Browser;

  beforeAll(async () => {
    const plansFile = path.join(scratch, "plans.json");
    const limits = { storageBytes: 100 * 1024 * 1024, maxFileBytes: 10 * 1024 * 1024, deploymentsKept: 5 };
    const plans = [
      { id: "basic", name: "Basic", price: "$0", default: true, limits },
      { id: "roomy", name: "Roomy", price: "$20", limits: { ...limits, storageBytes: null }, features: { customDomains: true } },
    ];
    writeFileSync(plansFile, JSON.stringify({ plans, upgradeTo: "roomy" }));
    [berth, browser] = await Promise.all([startBerth({ BERTH_PLANS_FILE: plansFile }), launchBrowser()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("is said of the plan whose storage has no limit, and of no other", async () => {
    const page = await browser.newPage();
    await page.goto(berth.url);
    await page.locator("#pricing li").first().waitFor();
    const roomy = await page.locator("#pricing article[aria-labelledby=plan-roomy]").innerText();
    const basic = await page.locator("#pricing article[aria-labelledby=plan-basic]").innerText();
    expect(roomy).toContain("Unlimited storage");
    expect(basic).not.toMatch(/unlimited/i);
    // Nothing to offer beyond no limit.
    expect(await page.locator("#pricing").innerText()).not.toContain("Need more than");
    const outside = (await page.locator("body").innerText()).replace(roomy, "");
    expect(outside).not.toMatch(/unlimited/i);
  });
});
