import { describe, expect, it } from "vitest";
import { NewFolderForm, SetSitePasswordForm, SITE_PASSWORD_TEXT, SITE_TEXT } from "./sites";

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } | undefined }) =>
  result.error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

describe("SetSitePasswordForm", () => {
  it("is the request's rule first, then the two entries compared", () => {
    expect(messages(SetSitePasswordForm.safeParse({ password: "short", confirm: "other" }))).toEqual([["password", SITE_PASSWORD_TEXT.tooShort]]);
    expect(messages(SetSitePasswordForm.safeParse({ password: "long enough", confirm: "long enougH" }))).toEqual([
      ["confirm", SITE_PASSWORD_TEXT.mismatch],
    ]);
    expect(SetSitePasswordForm.parse({ password: "long enough", confirm: "long enough" }).password).toBe("long enough");
  });
});

describe("NewFolderForm", () => {
  it("takes the request's name rule: trimmed, not blank", () => {
    expect(messages(NewFolderForm.safeParse({ name: "   " }))).toEqual([["name", SITE_TEXT.folderNameRequired]]);
    expect(NewFolderForm.parse({ name: " notes " })).toEqual({ name: "notes" });
  });
});
