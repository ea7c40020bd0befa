import { describe, expect, it } from "vitest";
import { FREE_PLAN } from "../plans/builtIn";
import { ZIP_LIMITS, zipLimitsFor } from "./limits";

describe("zipLimitsFor", () => {
  it("takes the file limit from the plan and the quota from what is left", () => {
    expect(zipLimitsFor(FREE_PLAN, 100 * 1024 * 1024)).toEqual({
      maxEntries: ZIP_LIMITS.maxEntries,
      maxTotalBytes: ZIP_LIMITS.maxTotalBytes,
      maxFileBytes: 50 * 1024 * 1024,
      quotaBytes: 400 * 1024 * 1024,
      planStorageBytes: 500 * 1024 * 1024,
    });
  });

  it("never gives a negative quota", () => {
    expect(zipLimitsFor(FREE_PLAN, FREE_PLAN.storageBytes + 1).quotaBytes).toBe(0);
  });
});
