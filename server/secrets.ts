import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { PRIVATE_DIR, PRIVATE_FILE } from "./privateFiles";

/** BERTH_SECRET when set; otherwise a random secret generated on first start and kept in the data dir. */
export function resolveSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: PRIVATE_FILE, flag: "wx" });
  return secret;
}
