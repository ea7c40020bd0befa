import { describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES } from "../../../common/account";
import { SETTINGS_TEXT } from "../../../common/texts";
import { avatarFileProblem } from "./avatar";

describe("avatarFileProblem", () => {
  it.each(["image/png", "image/jpeg", "image/webp"])("accepts %s up to 2 MB", (type) => {
    expect(avatarFileProblem({ type, size: AVATAR_MAX_BYTES })).toBeNull();
  });
  it("refuses other types", () => {
    expect(avatarFileProblem({ type: "image/gif", size: 10 })).toBe(SETTINGS_TEXT.avatar.wrongType);
    expect(avatarFileProblem({ type: "image/svg+xml", size: 10 })).toBe(SETTINGS_TEXT.avatar.wrongType);
    expect(avatarFileProblem({ type: "", size: 10 })).toBe(SETTINGS_TEXT.avatar.wrongType);
  });
  it("refuses a file over 2 MB", () => {
    expect(avatarFileProblem({ type: "image/png", size: AVATAR_MAX_BYTES + 1 })).toBe("This image is larger than 2 MB. Choose a smaller one.");
  });
});
