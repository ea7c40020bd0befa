// Dropping a whole folder, in Chromium against the built server: a site's folder dropped on the
// wizard (a real directory drag, so readEntries is read in batches of 100) is published as one
// deployment, dot-names left out but .well-known; dropped again with one file changed it sends
// that one file; a bad _redirects fails the publish, says so, and the same site takes the fixed
// folder; the folder's empty folders appear in the Files tab, and stay when a folder is added
// there later; in the Files tab a folder chosen with the picker lands under the folder shown, keeping
// every other file, and an upload cut off leaves the live site as it was until it is tried again.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteManifestResponse } from "../common/deploys";
import type { SiteListResponse, SiteResponse } from "../common/sites";
import { FOLDER_TEXT } from "../common/uploads";
import { getWithHost, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { dropFolder, openWizardUploadStep, signInNewUser } from "./support/pages";
import { shoot, shotsDir } from "./support/shots";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** Writes `files` (path → content) under `root`. */
function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

/** 200 files to publish: 150 in one folder (more than one readEntries batch), nested folders, one large file. */
function siteFiles(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {
    "index.html": '<!doctype html><link rel="stylesheet" href="assets/css/site.css"><h1>Folder site</h1>',
    "about.html": "<p>about</p>",
    "404.html": "<p>not here</p>",
    "robots.txt": "User-agent: *",
    ".well-known/security.txt": "Contact: mailto:security@example.com",
    "assets/css/site.css": "h1 { color: rgb(10, 20, 30); }",
    "assets/js/app.js": "console.log('hi');",
    "assets/img/logo.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>',
    // Over the size that goes alone: one PUT beside the tar batches.
    "media/clip.bin": Buffer.alloc(1536 * 1024, 7),
    "docs/guide/index.html": "<p>guide</p>",
  };
  for (let i = 0; i < 150; i++) files[`pages/page-${String(i).padStart(3, "0")}.html`] = `<p>page ${i}</p>`;
  for (let i = 0; i < 40; i++) files[`docs/guide/part-${String(i).padStart(2, "0")}.html`] = `<p>part ${i}</p>`;
  return files;
}

/** Folders dropped with nothing in them (docs/drafts holds a dot-file only), kept as folders of the site. */
const EMPTY = ["images", "docs/empty", "docs/drafts"];

/** What must never be published: dot-files and dot-folders below the top. */
const HIDDEN = { ".env": "SECRET=1", ".git/config": "[core]", ".git/HEAD": "ref: refs/heads/main", "docs/.DS_Store": "junk" };

describe("dropping a folder", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let work: string;
  let firstSite: SiteResponse;
  const SITE = siteFiles();

  /**
   * The deploy uploads the page sends (PUT of one file, POST of a tar), from now until `stop()`;
   * `publishes`: each publish's content type, application/x-tar when it brings files of its own.
   * (The browser reads a tar of Files from disk as it sends it, so Playwright has no copy of it.)
   */
  function watchUploads() {
    const seen: { method: string; url: string }[] = [];
    const publishes: string[] = [];
    const listener = (request: Request) => {
      if (/\/api\/sites\/[^/]+\/deploys\/[^/]+\/files(\/[0-9a-f]{64})?$/.test(request.url()))
        seen.push({ method: request.method(), url: request.url() });
      if (/\/deploys\/[^/]+\/publish$/.test(request.url())) publishes.push(request.headers()["content-type"] ?? "");
    };
    page.on("request", listener);
    return { seen, publishes, stop: () => page.off("request", listener) };
  }

  /** The site's empty folders, as the Files tab's manifest lists them. */
  const emptyFolders = async (site: SiteResponse) =>
    ((await (await page.context().request.get(`${berth.url}/api/sites/${site.id}/files/manifest`)).json()) as SiteManifestResponse).folders;
  const sites = async () => (await (await page.context().request.get(`${berth.url}/api/sites`)).json()) as SiteListResponse;
  /** A GET of the site as a visitor's browser makes it, following the edge's clean-URL redirects (/a.html → /a). */
  async function serve(site: SiteResponse, pathname: string) {
    let answer = await getWithHost(berth.port, new URL(site.url).host, pathname);
    for (let hops = 0; hops < 3 && (answer.status === 301 || answer.status === 308) && typeof answer.headers.location === "string"; hops++)
      answer = await getWithHost(berth.port, new URL(site.url).host, new URL(answer.headers.location, site.url).pathname);
    return answer;
  }

  async function wizardWithFolder(name: string, folder: string) {
    await openWizardUploadStep(page, berth, name);
    const zone = page.locator("label", { hasText: FOLDER_TEXT.fileOrFolder });
    await zone.waitFor();
    await dropFolder(page, zone, folder);
  }

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInNewUser(page, berth);
    work = mkdtempSync(path.join(os.tmpdir(), "berth-folder-e2e-"));
    writeTree(path.join(work, "mysite"), { ...SITE, ...HIDDEN });
    // Empty folders, and one that holds only a dot-file: a manifest of files would lose them.
    for (const empty of EMPTY) mkdirSync(path.join(work, "mysite", empty), { recursive: true });
    writeFileSync(path.join(work, "mysite", "docs", "drafts", ".keep"), "");
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("publishes a dropped folder from the wizard as one deployment, and serves every file but the hidden ones", { timeout: 120_000 }, async () => {
    await openWizardUploadStep(page, berth, "Folder site");
    await page.locator("label", { hasText: FOLDER_TEXT.fileOrFolder }).waitFor();
    await shoot(page, "folder-wizard-zone");

    await wizardWithFolder("Folder site", path.join(work, "mysite"));
    await page.getByText(/^200 files · 1\.\d+ MB$/).waitFor();
    // .env, .git, docs/.DS_Store and docs/drafts/.keep; .well-known at the top goes with the site.
    await page.getByText(FOLDER_TEXT.leftOut(4)).waitFor();
    await shoot(page, "folder-wizard-selected");

    const uploads = watchUploads();
    const cdp = await context.newCDPSession(page);
    if (shotsDir) {
      // Slow enough to photograph the progress, only when screenshots are asked for.
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 400 * 1024 });
      await page.getByRole("button", { name: "Create Site" }).click();
      await page.getByText(/ of 200 files · /).waitFor();
      await page.getByText(FOLDER_TEXT.uploading).first().waitFor();
      await shoot(page, "folder-wizard-progress");
    } else {
      await page.getByRole("button", { name: "Create Site" }).click();
    }
    await page.getByRole("heading", { name: "Your site is live" }).waitFor({ timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    uploads.stop();

    firstSite = (await sites()).sites[0]!;
    expect(firstSite).toMatchObject({ name: "Folder site", status: "active", live_version: 1, file_count: 200 });
    for (const [file, content] of Object.entries(SITE)) {
      const served = await serve(firstSite, `/${file}`);
      expect(served.status, file).toBe(200);
      if (typeof content === "string") expect(served.body, file).toBe(content);
    }
    for (const hidden of Object.keys(HIDDEN)) expect((await serve(firstSite, `/${hidden}`)).status, hidden).toBe(404);
    // One large file alone; the 199 small ones in tar batches, spread over the requests in flight.
    expect(uploads.seen.filter((r) => r.method === "PUT").map((r) => r.url.split("/").pop())).toEqual([sha256(SITE["media/clip.bin"]!)]);
    expect(uploads.seen.filter((r) => r.method === "POST").length).toBeGreaterThanOrEqual(4);

    // The empty folders are folders of the site: in its Files tab, at the top and inside docs.
    await page.goto(`${berth.url}/dashboard/sites/${firstSite.id}`);
    await page.getByRole("button", { name: "images" }).first().waitFor();
    await page.goto(`${berth.url}/dashboard/sites/${firstSite.id}?path=docs`);
    await page.getByRole("button", { name: "empty" }).first().waitFor();
    await page.getByRole("button", { name: "drafts" }).first().waitFor();
    await shoot(page, "folder-files-empty-folders", { fullPage: false });
    expect(await emptyFolders(firstSite)).toEqual(["docs/drafts", "docs/empty", "images"]);
  });

  it("sends only the one file that changed when the folder is dropped again", { timeout: 90_000 }, async () => {
    writeFileSync(path.join(work, "mysite", "pages", "page-007.html"), "<p>page 7, edited</p>");
    await wizardWithFolder("Folder site, again", path.join(work, "mysite"));
    await page.getByText(/^200 files · /).waitFor();
    const uploads = watchUploads();
    await page.getByRole("button", { name: "Create Site" }).click();
    await page.getByRole("heading", { name: "Your site is live" }).waitFor({ timeout: 60_000 });
    uploads.stop();
    // In the publish's own body: no upload request at all (the page is served below).
    expect(uploads.seen).toEqual([]);
    expect(uploads.publishes).toEqual(["application/x-tar"]);

    const again = (await sites()).sites.find((s) => s.name === "Folder site, again")!;
    expect(again).toMatchObject({ status: "active", file_count: 200 });
    expect((await serve(again, "/pages/page-007.html")).body).toBe("<p>page 7, edited</p>");
    expect((await serve(again, "/pages/page-008.html")).body).toBe("<p>page 8</p>");
  });

  it("says why a folder did not publish, and publishes the fixed one on the same site", { timeout: 90_000 }, async () => {
    const broken = path.join(work, "broken");
    writeTree(broken, { "index.html": "<h1>Redirecting</h1>", _redirects: "/old /new 999\n" });
    const before = (await sites()).sites.length;
    await wizardWithFolder("Redirects", broken);
    await page.getByText(/^2 files · /).waitFor();
    await page.getByRole("button", { name: "Create Site" }).click();
    const failure = page.getByRole("alert").filter({ hasText: FOLDER_TEXT.createdNotPublished("Redirects") });
    await failure.getByText(/line 1/).waitFor({ timeout: 60_000 });
    await shoot(page, "folder-wizard-failed");
    const pending = (await sites()).sites.find((s) => s.name === "Redirects")!;
    expect(pending).toMatchObject({ status: "pending", live_version: null });
    expect((await serve(pending, "/")).status).toBe(404);

    writeFileSync(path.join(broken, "_redirects"), "/old /new 301\n");
    await page.getByRole("button", { name: "Remove broken" }).click();
    await dropFolder(page, page.locator("label", { hasText: FOLDER_TEXT.fileOrFolder }), broken);
    await page.getByText(/^2 files · /).waitFor();
    await page.getByRole("button", { name: "Create Site" }).click();
    await page.getByRole("heading", { name: "Your site is live" }).waitFor({ timeout: 60_000 });
    const list = (await sites()).sites;
    expect(list).toHaveLength(before + 1);
    const live = list.find((s) => s.name === "Redirects")!;
    expect(live).toMatchObject({ id: pending.id, subdomain: pending.subdomain, status: "active", file_count: 2 });
    expect((await serve(live, "/")).body).toBe("<h1>Redirecting</h1>");
    expect((await getWithHost(berth.port, new URL(live.url).host, "/old")).headers.location).toMatch(/\/new$/);
  });

  it(
    "adds a folder chosen in the Files tab under the folder shown, keeping every other file, after a cut-off try",
    { timeout: 120_000 },
    async () => {
      const extra = path.join(work, "extra");
      writeTree(extra, {
        "index.html": "<p>extra</p>",
        "css/extra.css": "p { margin: 0; }",
        "deep/a/b/c.txt": "deep",
        // Already stored (a page of the site): listed, not sent.
        "copy.html": "<p>page 1</p>",
        ".DS_Store": "junk",
      });
      await page.goto(`${berth.url}/dashboard/sites/${firstSite.id}?path=docs`);
      await page.getByRole("button", { name: "guide" }).first().waitFor();
      await page.getByRole("button", { name: "Upload", exact: true }).first().click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: FOLDER_TEXT.chooseFolder }).waitFor();
      await shoot(page, "folder-files-zone", { fullPage: false });
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), dialog.getByRole("button", { name: FOLDER_TEXT.chooseFolder }).click()]);
      await chooser.setFiles(extra);
      await dialog.getByText(/^4 files · /).waitFor();
      await dialog.getByText(FOLDER_TEXT.leftOut(1)).waitFor();
      await shoot(page, "folder-files-selected", { fullPage: false });

      // The publish that carries the files is cut off: the deploy stays unpublished and the live site as it was.
      const cut = (route: { abort: () => Promise<void> }) => route.abort();
      await page.route(/\/deploys\/[^/]+\/publish/, cut);
      await dialog.getByRole("button", { name: "Upload", exact: true }).click();
      await page.getByText(FOLDER_TEXT.liveUnchanged).first().waitFor({ timeout: 60_000 });
      expect((await serve(firstSite, "/docs/extra/index.html")).status).toBe(404);
      expect((await sites()).sites.find((s) => s.id === firstSite.id)).toMatchObject({ live_version: 1, file_count: 200 });
      await page.unroute(/\/deploys\/[^/]+\/publish/, cut);

      const uploads = watchUploads();
      await dialog.getByRole("button", { name: "Upload", exact: true }).click();
      await page.getByText(FOLDER_TEXT.succeeded).first().waitFor({ timeout: 60_000 });
      uploads.stop();
      // The three new files (copy.html's bytes are stored) are small enough to go with the publish.
      expect(uploads.seen).toEqual([]);
      expect(uploads.publishes).toEqual(["application/x-tar"]);
      await page.getByRole("button", { name: "extra" }).first().waitFor();

      const site = (await sites()).sites.find((s) => s.id === firstSite.id)!;
      expect(site).toMatchObject({ live_version: 2, file_count: 204 });
      expect((await serve(site, "/docs/extra/")).body).toBe("<p>extra</p>");
      expect((await serve(site, "/docs/extra/deep/a/b/c.txt")).body).toBe("deep");
      expect((await serve(site, "/docs/extra/copy.html")).body).toBe("<p>page 1</p>");
      expect((await serve(site, "/docs/extra/.DS_Store")).status).toBe(404);
      for (const kept of ["index.html", "docs/guide/part-39.html", "pages/page-149.html", "media/clip.bin", ".well-known/security.txt"])
        expect((await serve(site, `/${kept}`)).status, kept).toBe(200);
      // The site's empty folders stay: the Files tab sends them beside the files it keeps.
      expect(await emptyFolders(site)).toEqual(["docs/drafts", "docs/empty", "images"]);
    },
  );

  it("shows the upload's real progress in files and bytes, and the bar moves", { timeout: 90_000 }, async () => {
    const more = path.join(work, "more");
    writeTree(more, { "big.bin": Buffer.alloc(2 * 1024 * 1024, 3), "index.html": "<p>more</p>" });
    await page.goto(`${berth.url}/dashboard/sites/${firstSite.id}?path=docs`);
    await page.getByRole("button", { name: "Upload", exact: true }).first().click();
    const dialog = page.getByRole("dialog");
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), dialog.getByRole("button", { name: FOLDER_TEXT.chooseFolder }).click()]);
    await chooser.setFiles(more);
    // 2 MB at 512 KB/s: about four seconds of upload to watch.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    const bar = dialog.getByRole("progressbar", { name: "Upload progress" });
    await bar.waitFor();
    const first = Number(await bar.getAttribute("aria-valuenow"));
    await dialog.getByText(/^[0-2] of 2 files · [\d.]+ (Bytes|KB|MB) of 2 MB$/).waitFor();
    await shoot(page, "folder-files-progress", { fullPage: false });
    await page.waitForFunction(
      ([start]) =>
        Number(document.querySelector('[role="progressbar"][aria-label="Upload progress"]')?.getAttribute("aria-valuenow") ?? 100) > start!,
      [first],
    );
    await page.getByText(FOLDER_TEXT.succeeded).first().waitFor({ timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    expect((await serve(firstSite, "/docs/more/")).body).toBe("<p>more</p>");
    expect((await serve(firstSite, "/docs/more/big.bin")).body).toHaveLength(2 * 1024 * 1024);
  });
});
