import { describe, expect, it } from "vitest";
import { zodResolver } from "@hookform/resolvers/zod";
import { CreateSiteFields } from "../../../common/sites";
import { basicsProblem, FILE_REQUIRED, publishExplanation, sitesHost } from "./wizard";

/** The errors react-hook-form holds after submitting these fields, through the real resolver. */
async function errorsOf(fields: { name: string; description: string; subdomain: string }) {
  const result = await zodResolver(CreateSiteFields)(fields, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return result.errors;
}

describe("basicsProblem", () => {
  it("asks for a name first, blank counts as missing", async () => {
    expect(basicsProblem(await errorsOf({ name: "  ", description: "", subdomain: "" }))).toEqual({
      title: "Site name is required",
      description: "Please enter a name for your site",
    });
  });
  it("then for a subdomain", async () => {
    expect(basicsProblem(await errorsOf({ name: "Docs", description: "", subdomain: "" }))).toEqual({
      title: "Subdomain is required",
      description: "No subdomain was assigned. Please try again.",
    });
  });
  it("passes with both", async () => {
    expect(basicsProblem(await errorsOf({ name: "Docs", description: "", subdomain: "abcde" }))).toBeNull();
  });
});

describe("FILE_REQUIRED", () => {
  it("is 'File required' / 'Please upload at least one file to continue'", () => {
    expect(FILE_REQUIRED).toEqual({
      title: "File required",
      description: "Please upload at least one file to continue",
    });
  });
});

describe("sitesHost", () => {
  it("adds a non-default port", () => {
    expect(sitesHost("localhost", "8080")).toBe("localhost:8080");
    expect(sitesHost("berth.page", "")).toBe("berth.page");
    expect(sitesHost("berth.page", "443")).toBe("berth.page");
  });
});

describe("publishExplanation", () => {
  it.each([
    ["site.zip", /unpacked and its index.html/],
    ["report.PDF", /viewer page/],
    ["photo.jpeg", /its own page/],
    ["index.htm", /served as the page/],
    ["app.js", /published as is, at \/app\.js/],
  ])("%s", (name, expected) => {
    expect(publishExplanation(name)).toMatch(expected);
  });
});
