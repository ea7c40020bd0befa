import { describe, expect, it } from "vitest";
import { SITE_TEXT } from "../../../common/sites";
import { UPLOAD_TEXT } from "../../../common/uploads";
import {
  failureDescription,
  publishExplanation,
  sitesHost,
  validateBasicInfo,
  validateSubmit,
  validateUploadFile,
} from "./wizard";

const MB = 1024 * 1024;

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

describe("validateUploadFile", () => {
  it("refuses an unsupported type", () => {
    expect(
      validateUploadFile(
        { name: "notes.txt", type: "text/plain", size: 10 },
        50 * MB,
      ),
    ).toEqual({
      title: "Unsupported file type",
      description: UPLOAD_TEXT.unsupportedDescription,
    });
  });
  it("accepts by extension or by MIME type", () => {
    expect(
      validateUploadFile({ name: "site.ZIP", type: "", size: 10 }, 50 * MB),
    ).toBeNull();
    expect(
      validateUploadFile(
        { name: "report", type: "application/pdf", size: 10 },
        50 * MB,
      ),
    ).toBeNull();
  });
  it("uses the plan's limit in the text", () => {
    expect(
      validateUploadFile(
        { name: "a.pdf", type: "", size: 50 * MB + 1 },
        50 * MB,
      ),
    ).toEqual({
      title: "File too large",
      description: "Maximum file size is 50MB",
    });
    expect(
      validateUploadFile({ name: "a.pdf", type: "", size: 300 * MB }, 250 * MB)
        ?.description,
    ).toBe("Maximum file size is 250MB");
    expect(
      validateUploadFile({ name: "a.pdf", type: "", size: 50 * MB }, 50 * MB),
    ).toBeNull();
  });
});

describe("sitesHost", () => {
  it("adds a non-default port", () => {
    expect(sitesHost("localhost", "8080")).toBe("localhost:8080");
    expect(sitesHost("berth.page", "")).toBe("berth.page");
    expect(sitesHost("berth.page", "443")).toBe("berth.page");
  });
});

describe("failureDescription", () => {
  it("joins message and detail", () => {
    expect(
      failureDescription({
        message: "File too large",
        detail: "Maximum file size is 50MB",
      }),
    ).toBe("File too large. Maximum file size is 50MB");
    expect(
      failureDescription({
        message: "Quota exceeded.",
        detail: "Delete a site.",
      }),
    ).toBe("Quota exceeded. Delete a site.");
    expect(failureDescription({ message: "Cannot reach the server." })).toBe(
      "Cannot reach the server.",
    );
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
