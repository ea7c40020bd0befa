// The admin page's storage figures: the real disk use next to the sum of what quotas count. Compressed copies are the server's own optimisation, so they are on disk
// but in no user's quota (see compressVariants.ts); this is where the operator sees them.
import type { AdminStorageResponse } from "../../../common/admin";
import type { AppContext } from "../../context";
import { getDiskUsage } from "../../db/repositories/diskUsage";

export async function storageOverview(ctx: Pick<AppContext, "db">): Promise<AdminStorageResponse> {
  return getDiskUsage(ctx.db);
}
