// The secret a backup must carry: the one the server signs sessions, share links and site-password
// cookies with. Read the way the server resolves it (server/secrets.ts), but never generated here:
// a backup that invented a new secret would restore an instance where every session is invalid.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "../env";

export const SECRET_FILE = "secret";

export function readServerSecret(env: Pick<Env, "secret" | "dataDir">): string | undefined {
  if (env.secret) return env.secret;
  const file = path.join(env.dataDir, SECRET_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() || undefined : undefined;
}
