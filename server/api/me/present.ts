import type { MeResponse } from "../../../common/api";
import type { AppContext } from "../../context";
import { getProfileForUser } from "../../db/repositories/profiles";
import { avatarUrl } from "../../services/avatars";
import { isAdmin, type SessionUser } from "../session";

/** GET /api/me's answer, also returned by every call that changes the profile. */
export async function presentMe(ctx: AppContext, user: SessionUser): Promise<MeResponse> {
  const profile = await getProfileForUser(ctx.db, user.id);
  return {
    user: { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt.toISOString() },
    profile: {
      id: user.id,
      full_name: profile?.full_name ?? user.name,
      company: profile?.company ?? null,
      website: profile?.website ?? null,
      avatar_url: avatarUrl(profile?.avatar_sha256),
      updated_at: (profile?.updated_at ?? user.updatedAt).toISOString(),
    },
    account: {
      plan: profile?.plan ?? ctx.plans.defaultPlan,
      isAdmin: await isAdmin(ctx, user),
      twoFactorEnabled: user.twoFactorEnabled ?? false,
    },
  };
}
