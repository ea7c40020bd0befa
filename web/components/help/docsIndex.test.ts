import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCS_INDEX, searchDocs } from "./docsIndex";

const DOCS_DIR = path.join(import.meta.dirname, "../marketing/docs");
const sources = readdirSync(DOCS_DIR)
  .filter((name) => name.endsWith(".tsx"))
  .map((name) => readFileSync(path.join(DOCS_DIR, name), "utf8"))
  .join("\n");

describe("the docs index", () => {
  it.each(DOCS_INDEX.map((e) => [e.section, e.heading ?? "(section)", e] as const))("%s › %s is on the docs page", (_s, _h, entry) => {
    // The section's anchor and title as DocSection is given them, and the heading as a DocHeading.
    expect(sources).toMatch(new RegExp(`id="${entry.section}"`));
    expect(sources).toContain(`title="${entry.sectionTitle}"`);
    if (entry.heading) expect(sources).toContain(`<DocHeading>${entry.heading}</DocHeading>`);
  });

  it("finds by title, by keyword and by the start of a word, best first", () => {
    expect(searchDocs("redirects")[0]).toMatchObject({ title: "Redirects and headers", href: "/docs#redirects-and-headers" });
    expect(searchDocs("redir").map((h) => h.title)).toContain("_redirects");
    expect(searchDocs("github actions")[0]).toMatchObject({ title: "Continuous deployment", href: "/docs#cli" });
    expect(searchDocs("SPA")[0]?.title).toBe("Fallback pages and clean URLs");
    expect(searchDocs("custom 404")[0]?.title).toBe("Fallback pages and clean URLs");
    expect(searchDocs("postgres")[0]?.title).toBe("Using PostgreSQL");
    expect(searchDocs("grafana")[0]?.title).toBe("Monitoring with Prometheus");
    expect(searchDocs("doctor")[0]?.title).toBe("Checking the setup");
  });

  it("needs every word, and finds nothing for nothing", () => {
    expect(searchDocs("")).toEqual([]);
    expect(searchDocs("   ")).toEqual([]);
    expect(searchDocs("webhook zebra")).toEqual([]);
    expect(searchDocs("x".repeat(50))).toEqual([]);
  });
});
