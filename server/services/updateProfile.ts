// Saves the Settings page's profile form. The full name is also better-auth's users.name, so
// the session's user and the profile never disagree about what the header greets.
import type { AppContext } from "../context";
import { setUserName, updateProfileDetails } from "../db/repositories/profiles";
import type { ProfileUpdate } from "../../common/account";

export async function updateProfile(ctx: Pick<AppContext, "db">, userId: string, update: ProfileUpdate): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await updateProfileDetails(tx, userId, {
      full_name: update.full_name,
      company: update.company || null,
      website: update.website || null,
    });
    await setUserName(tx, userId, update.full_name);
  });
}
