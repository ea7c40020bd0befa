// The user's config file: where `berth login` keeps the server and the token it got. It holds a
// secret, so the file is written owner-only (0600) in an owner-only folder (0700), through a
// temporary file renamed over the old one, so a crash never leaves half a file.
import { readFileSync, rmSync } from "node:fs";
import { writePrivateFile } from "./privateFile";
import os from "node:os";
import path from "node:path";
import { CliError } from "./errors";

export interface UserConfig {
  server?: string;
  token?: string;
  /** Who the token acts for, as the server said at sign-in; only shown. */
  email?: string;
}

/** $XDG_CONFIG_HOME/berth/config.json, else ~/.config/berth/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME ?? os.homedir(), ".config");
  return path.join(base, "berth", "config.json");
}

export function readUserConfig(file: string): UserConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CliError(`could not read ${file}: ${(error as Error).message}`);
  }
  const parsed = parseJsonObject(text, file);
  const config: UserConfig = {};
  for (const key of ["server", "token", "email"] as const) {
    const value = parsed[key];
    if (typeof value === "string" && value !== "") config[key] = value;
  }
  return config;
}

export function writeUserConfig(file: string, config: UserConfig): void {
  writePrivateFile(file, JSON.stringify(config, null, 2) + "\n");
}

export function removeUserConfig(file: string): void {
  rmSync(file, { force: true });
}

/** A JSON object from `text`, or a one-line error naming `file`. */
export function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CliError(`${file} must hold a JSON object`);
  return value as Record<string, unknown>;
}
