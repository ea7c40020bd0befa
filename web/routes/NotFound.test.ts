import { describe, expect, it } from "vitest";
import { notFoundActions } from "./NotFound";

describe("notFoundActions", () => {
  it.each([
    ["/dashboard/nope", false, true, ["backToDashboard", "goHome"]],
    ["/dashboard", false, true, ["backToDashboard", "goHome"]],
    ["/nope", false, true, ["goToDashboard", "goHome"]],
    ["/dashboards", false, true, ["goToDashboard", "goHome"]],
    ["/dashboard/nope", false, false, ["signIn", "goHome"]],
    ["/nope", false, false, ["signIn", "goHome"]],
    ["/dashboard/nope", true, false, ["goHome"]],
    ["/nope", true, true, ["goHome"]],
  ] as const)("%s loading=%s signedIn=%s", (pathname, loading, signedIn, expected) => {
    expect(notFoundActions({ pathname, loading, signedIn })).toEqual(expected);
  });
});
