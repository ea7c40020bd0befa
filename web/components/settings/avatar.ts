// The browser's check of a chosen profile picture, before any byte is sent. The server checks
// again, by the file's first bytes rather than its name.
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from "../../../common/account";
import { formatBytes } from "../../../common/format";
import { SETTINGS_TEXT } from "../../../common/texts";

/** "2 MB". */
export const AVATAR_LIMIT = formatBytes(AVATAR_MAX_BYTES);

/** Why this file cannot be a profile picture, or null when it can be uploaded. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return SETTINGS_TEXT.avatar.wrongType;
  if (file.size > AVATAR_MAX_BYTES) return SETTINGS_TEXT.avatar.tooLarge(AVATAR_LIMIT);
  return null;
}

/** What the file picker offers. */
export const AVATAR_ACCEPT = AVATAR_TYPES.join(",");
