// Deletes a user and everything they own: sites (with their deployments, files and subdomains,
// which go back to the pool), the name they reserved, their avatar, sessions and accounts. Blobs
// are shared between users (content-addressed), so only those nothing else uses are deleted.
import type { AppContext } from "../../context";
import { deleteUserRow, getAvatarBlobOfUser, lockSitesOfUser, releaseReservationsOfUser } from "../../db/repositories/adminUsers";
import { lockUserQuota } from "../../db/repositories/usage";
import { deleteUnreferencedBytes, releaseBlobs } from "../releaseBlobs";
import { purgeSiteRows } from "../purgeDeletedSites";
import { requireUserById } from "./findUser";
import { assertAllowed, type ActorId } from "./rules";

export async function deleteUser(ctx: Pick<AppContext, "db" | "env" | "blobs" | "events" | "log">, actorId: ActorId, userId: string): Promise<void> {
  const target = await requireUserById(ctx, userId);
  assertAllowed("delete", actorId, target);

  const { sites, garbage } = await ctx.db.transaction(async (tx) => {
    // Sites first, then the quota lock: the order uploads take them in, so the two cannot deadlock.
    // An upload committing for this user waits, then fails on the missing user.
    const sites = await lockSitesOfUser(tx, userId);
    await lockUserQuota(tx, userId);
    // Each site goes the way the worker purges one; before the user row, whose deletion would
    // cascade to the sites and hide which blobs they used.
    const garbage = await purgeSiteRows(tx, sites);
    await releaseReservationsOfUser(tx, userId);
    const avatar = await getAvatarBlobOfUser(tx, userId);
    await deleteUserRow(tx, userId);
    if (avatar) garbage.push(...(await releaseBlobs(tx, [avatar])));
    return { sites, garbage };
  });

  // The rows are gone for good before the bytes go: a crash here leaves only unreferenced blobs.
  await deleteUnreferencedBytes(ctx, garbage);
  for (const site of sites) ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
  ctx.log.info({ userId, email: target.email, sites: sites.length, blobs: garbage.length, by: actorId ?? "operator" }, "admin deleted a user");
}
