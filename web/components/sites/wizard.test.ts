import { describe, expect, it } from "vitest";
import { SITE_TEXT } from "../../../common/sites";
import {
  publishExplanation,
  sitesHost,
  validateBasicInfo,
  validateSubmit,
} from "./wizard";

describe("validateBasicInfo", () => {
  it("asks for a name first, blank counts as missing", () => {
    expect(validateBasicInfo({ name: "  ", subdomain: null })).toEqual({
      title: "Site name is required",
      description: "Please enter a name for your site",
    });
  });
  it("then for a subdomain", () => {
    expect(validateBasicInfo({ name: "Docs", subdomain: "" })).toEqual({
      title: "Subdomain is required",
      description: "No subdomain was assigned. Please try again.",
    });
  });
  it("passes with both", () => {
    expect(validateBasicInfo({ name: "Docs", subdomain: "abcde" })).toBeNull();
  });
});

describe("validateSubmit", () => {
  it("needs a file", () => {
    expect(validateSubmit({ name: "Docs", subdomain: "abcde" }, null)).toEqual({
      title: "File required",
      description: "Please upload at least one file to continue",
    });
    expect(
      validateSubmit({ name: "Docs", subdomain: "abcde" }, { name: "a.html" }),
    ).toBeNull();
  });
  it("still checks the basics", () => {
    expect(
      validateSubmit({ name: "", subdomain: "abcde" }, { name: "a.html" })
        ?.title,
    ).toBe(SITE_TEXT.nameRequired);
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
