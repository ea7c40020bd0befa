// A plan without file versioning keeps the last deployments of each site (common/plans.ts,
// versionsKept); a plan with it (the built-in Pro) keeps them all. Older ones go after each publish, with their version hosts and the bytes
// nothing else uses. The live deployment always stays, even after a rollback to an old version.
import type { AppContext } from "../context";
import { blobsOfDeployments, deleteDeployments, deploymentsBeyondHistory } from "../db/repositories/deployments";
import { lockSite, type Site } from "../db/repositories/sites";
import { versionsKept } from "../../common/plans";
import { planOf } from "./planPolicy";
import { deleteUnreferencedBytes, releaseBlobs } from "./releaseBlobs";

/** Returns how many deployments went. */
export async function pruneDeployments(
  ctx: Pick<AppContext, "db" | "plans" | "blobs" | "events">,
  site: Pick<Site, "id" | "user_id" | "subdomain">,
): Promise<number> {
  const keep = versionsKept(await planOf(ctx, site.user_id));
  if (keep === null) return 0;
  const { gone, garbage } = await ctx.db.transaction(async (tx) => {
    await lockSite(tx, site.id);
    const gone = await deploymentsBeyondHistory(tx, site.id, keep);
    const candidates = await blobsOfDeployments(tx, gone);
    await deleteDeployments(tx, gone);
    return { gone, garbage: await releaseBlobs(tx, candidates) };
  });
  if (gone.length === 0) return 0;
  await deleteUnreferencedBytes(ctx, garbage);
  // Drops the edge's cached version hosts of the site.
  ctx.events.emit("site", { userId: site.user_id, siteId: site.id, subdomain: site.subdomain });
  return gone.length;
}
