// How much one zip archive may unpack to. The hard guarantee is that unpacked bytes are counted as
// they are written (extractZip.ts): headers can lie, so no number below is trusted from them.
import { byteLimit, type Plan } from "../../common/plans";

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const ZIP_LIMITS = {
  /**
   * Entries in the central directory, folders and skipped junk included. A real static site has
   * hundreds; ten thousand keeps one archive's database rows and blob writes bounded.
   */
  maxEntries: 10_000,
  /** Unpacked bytes of one archive, whatever quota is left: bounds the disk and CPU one upload costs. */
  maxTotalBytes: 1 * GB,
} as const;

// No compression-ratio rule: deflate tops out near 1032:1, so a ratio limit would refuse honest
// files (a blank SVG, a big JSON of zeros) while adding nothing the byte counts do not already
// guarantee. A bomb costs at most maxTotalBytes of inflating before it is refused.

export interface ZipExtractLimits {
  maxEntries: number;
  /** The archive's own cap on unpacked bytes. */
  maxTotalBytes: number;
  /** The largest single file inside the archive. */
  maxFileBytes: number;
  /** Storage the account has left; when it is the tighter bound, the refusal says quota_exceeded. */
  quotaBytes?: number;
  /** The plan's whole storage, for the refusal's text. */
  planStorageBytes?: number;
}

/** The limits for an archive uploaded by a user on `plan` with `usedBytes` already stored. */
export function zipLimitsFor(plan: Pick<Plan, "maxFileBytes" | "storageBytes">, usedBytes: number): ZipExtractLimits {
  return {
    maxEntries: ZIP_LIMITS.maxEntries,
    maxTotalBytes: ZIP_LIMITS.maxTotalBytes,
    maxFileBytes: byteLimit(plan.maxFileBytes),
    quotaBytes: Math.max(0, byteLimit(plan.storageBytes) - usedBytes),
    planStorageBytes: byteLimit(plan.storageBytes),
  };
}
