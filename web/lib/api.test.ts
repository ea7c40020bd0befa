import { describe, expect, it } from "vitest";
import { SITE_TEXT } from "../../common/sites";
import { ApiError, errorDescription } from "./api";

describe("errorDescription", () => {
  it("joins the server's message and detail into one sentence pair", () => {
    expect(errorDescription(new ApiError(413, "too_large", "File too large", undefined, "Maximum file size is 50MB"))).toBe(
      "File too large. Maximum file size is 50MB",
    );
    expect(errorDescription(new ApiError(409, "quota", "Quota exceeded.", undefined, "Delete a site."))).toBe("Quota exceeded. Delete a site.");
  });
  it("is the message alone without a detail, and 'Please try again later.' for what is not an error", () => {
    expect(errorDescription(new ApiError(0, "network", "Cannot reach the server."))).toBe("Cannot reach the server.");
    expect(errorDescription(new Error("Aborted"))).toBe("Aborted");
    expect(errorDescription("nonsense")).toBe(SITE_TEXT.tryLater);
  });
});
