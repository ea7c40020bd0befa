// Where each kind of notice goes (Settings, Notifications): the defaults, what the account
// changed (profiles.notification_channels), and the two e-mail switches that predate the feed
// (a failed deployment, an active domain), which stay the e-mail channel of those two kinds.
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationChannelOverrides,
  type NotificationChannels,
  type NotificationKind,
  type UpdateNotificationChannelsRequest,
} from "../../../common/notifications";
import type { AppContext } from "../../context";
import { getNotificationChannelState, lockProfile, setNotificationChannelState, type NotificationChannelState } from "../../db/repositories/profiles";

/** Every kind's channels for a stored state (none stored: the defaults). */
export function channelsOf(state: NotificationChannelState | undefined): NotificationChannels {
  const channels = {} as NotificationChannels;
  for (const kind of NOTIFICATION_KINDS) {
    channels[kind] = { ...DEFAULT_NOTIFICATION_CHANNELS[kind], ...state?.overrides[kind] };
  }
  if (state) {
    channels.deploy_failed.email = state.deployFailedEmail;
    channels.domain_active.email = state.domainActiveEmail;
  }
  return channels;
}

export async function readNotificationChannels(ctx: Pick<AppContext, "db">, userId: string): Promise<NotificationChannels> {
  return channelsOf(await getNotificationChannelState(ctx.db, userId));
}

/** One kind's channels for the user. */
export async function channelOf(ctx: Pick<AppContext, "db">, userId: string, kind: NotificationKind): Promise<NotificationChannel> {
  return (await readNotificationChannels(ctx, userId))[kind];
}

/** Saves the kinds the request names; the others keep their channels. Answers every kind's, as stored. */
export async function saveNotificationChannels(
  ctx: Pick<AppContext, "db">,
  userId: string,
  update: UpdateNotificationChannelsRequest,
): Promise<NotificationChannels> {
  await ctx.db.transaction(async (tx) => {
    await lockProfile(tx, userId);
    const state = await getNotificationChannelState(tx, userId);
    if (!state) return;
    const next = { ...state, overrides: { ...state.overrides } };
    for (const kind of NOTIFICATION_KINDS) {
      const channel = update.channels[kind];
      if (!channel) continue;
      if (kind === "deploy_failed") next.deployFailedEmail = channel.email;
      if (kind === "domain_active") next.domainActiveEmail = channel.email;
      next.overrides[kind] = overrideOf(kind, channel);
    }
    await setNotificationChannelState(tx, userId, { ...next, overrides: compact(next.overrides) });
  });
  return readNotificationChannels(ctx, userId);
}

/** What differs from the defaults; the e-mail of the two kinds with their own columns is kept there. */
function overrideOf(kind: NotificationKind, channel: NotificationChannel): Partial<NotificationChannel> {
  const defaults = DEFAULT_NOTIFICATION_CHANNELS[kind];
  const override: Partial<NotificationChannel> = {};
  if (channel.feed !== defaults.feed) override.feed = channel.feed;
  if (channel.email !== defaults.email && kind !== "deploy_failed" && kind !== "domain_active") override.email = channel.email;
  return override;
}

function compact(overrides: NotificationChannelOverrides): NotificationChannelOverrides {
  return Object.fromEntries(Object.entries(overrides).filter(([, value]) => value && Object.keys(value).length > 0));
}
