import type { Browser, Frame, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { linearizedPdf } from "./support/pdf";

// Chromium's PDF viewer ships with partial loading switched off and then downloads every PDF
// whole. With these two features it behaves like a seeking viewer: it starts on the plain GET and,
// for a linearized file on a server that sends Accept-Ranges and Content-Length, cancels that
// download and fetches what it needs with Range requests.
const SEEKING_PDF_VIEWER = ["PdfIncrementalLoading", "PdfPartialLoading"];
/** Generous: the viewer usually has the first page and both ranges within a second. */
const LOAD_MS = 10_000;

describe("PDFs in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser({ features: SEEKING_PDF_VIEWER })]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInNewUser(page, berth);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  it("opens a hosted PDF in the viewer, which seeks with Range requests that the edge answers with 206 and the exact bytes", async () => {
    // About 4 MB: the first page sits in the first 2 KB, the main cross-reference table at the end.
    const pdf = linearizedPdf({ pages: 40, paddingPerPage: 100_000 });
    const size = pdf.bytes.length;
    await createSiteInWizard(page, berth, "Annual report", { name: "report.pdf", mimeType: "application/pdf", buffer: pdf.bytes });
    const siteUrl = (await page
      .getByRole("link", { name: /\.localhost/ })
      .first()
      .getAttribute("href"))!;
    const pdfUrl = new URL("report.pdf", siteUrl).href;

    const visitor = await page.context().newPage();
    const ranged: Request[] = [];
    visitor.on("request", (request) => {
      if (request.url() === pdfUrl && request.headers().range) ranged.push(request);
    });
    await visitor.goto(siteUrl);

    // The viewer shows the page count from the linearization dictionary once it has the first page.
    const pageCount = (await viewerFrame(visitor)).locator("#pagelength", { hasText: /\d/ });
    await pageCount.waitFor({ timeout: LOAD_MS });
    expect(await pageCount.textContent()).toBe(String(pdf.pages));

    // It seeks: the first range asks for the tail, where the main cross-reference table is, before
    // anything between the first page and it; further ranges fill in the rest.
    await expect.poll(() => ranged.length, { timeout: LOAD_MS }).toBeGreaterThanOrEqual(2);
    const tail = parseRange(await ranged[0]!.headerValue("range"));
    expect(tail.last).toBe(size - 1);
    expect(tail.first).toBeGreaterThan(pdf.firstPageEnd);
    expect(tail.first).toBeLessThanOrEqual(pdf.mainXrefOffset);

    for (const request of ranged.slice()) {
      const { first, last } = parseRange(await request.headerValue("range"));
      const response = (await request.response())!;
      expect(response.status()).toBe(206);
      expect(await response.headerValue("content-range")).toBe(`bytes ${first}-${last}/${size}`);
      expect(await response.headerValue("content-length")).toBe(String(last - first + 1));
      const body = await response.body();
      expect(body.equals(pdf.bytes.subarray(first, last + 1)), `bytes ${first}-${last} differ from the file`).toBe(true);
    }
    await visitor.close();
  });
});

/** The frame of Chromium's PDF viewer (its own extension page), inside the site's iframe. */
async function viewerFrame(page: Page): Promise<Frame> {
  const find = () => page.frames().find((frame) => frame.url().startsWith("chrome-extension://"));
  await expect.poll(() => find() !== undefined, { timeout: LOAD_MS, message: "the PDF viewer did not open" }).toBe(true);
  return find()!;
}

function parseRange(header: string | null): { first: number; last: number } {
  const match = /^bytes=(\d+)-(\d+)$/.exec(header ?? "");
  if (!match) throw new Error(`not a single closed byte range: ${String(header)}`);
  return { first: Number(match[1]), last: Number(match[2]) };
}
