import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getTestServer, type TestServer } from "../../test/support";
import { loadLegalDocuments, LegalFileError } from "../../legal/documents";
import { BUILT_IN_PLANS } from "../../plans/builtIn";

describe("public configuration and legal texts", () => {
  let server: TestServer;
  const customTerms = path.join(mkdtempSync(path.join(os.tmpdir(), "berth-legal-")), "terms.md");
  beforeAll(async () => {
    writeFileSync(customTerms, "# Our terms\n\nBe nice.");
    server = await getTestServer("pglite", {
      env: {
        BERTH_CONTACT_PHONE: "+1 555 0100",
        BERTH_SITES_DOMAIN: "berth.example",
        BERTH_TERMS_FILE: customTerms,
        BERTH_UPGRADE_URL: "https://billing.example.com/berth?email={email}",
      },
    });
  });
  afterAll(() => server.close());

  it("tells the pages where sites live, how to reach the operator, the plans and whether it backs up daily", async () => {
    const response = await server.client().get("/api/config");
    expect(response.json()).toEqual({
      appUrl: "http://localhost:8080",
      sitesDomain: "berth.example",
      contactEmail: "operator@berth.test",
      contactAddress: null,
      contactPhone: "+1 555 0100",
      version: JSON.parse(readFileSync("package.json", "utf8")).version,
      upgradeUrl: "https://billing.example.com/berth?email={email}",
      // No BERTH_PLANS_FILE: the built-in Free and Pro, as the server enforces them.
      plans: BUILT_IN_PLANS,
      backupDaily: false,
    });
  });

  it("serves the operator's terms and the default privacy policy", async () => {
    const terms = (await server.client().get("/api/legal/terms")).json();
    expect(terms).toEqual({ title: "Terms of Service", markdown: "# Our terms\n\nBe nice.", custom: true });
    const privacy = (await server.client().get("/api/legal/privacy")).json();
    expect(privacy.custom).toBe(false);
    expect(privacy.markdown).toMatch(/^# Privacy Policy/);
  });

  it("refuses to start with a legal file that cannot be read", () => {
    expect(() => loadLegalDocuments({ termsFile: "/nonexistent/terms.md" })).toThrow(LegalFileError);
  });

  it("answers /api/me with 401 when signed out", async () => {
    const response = await server.client().get("/api/me");
    expect(response.statusCode).toBe(401);
  });
});
