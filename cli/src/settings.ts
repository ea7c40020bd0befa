// Which server, token and site a command uses. Each comes from the first place that has it:
//   1. the command line (--server, --site)
//   2. the environment (BERTH_SERVER, BERTH_TOKEN, BERTH_SITE), as CI jobs set them
//   3. berth.json in the folder being deployed, else in the current folder ({ "server", "site" })
//   4. the user's config file, written by `berth login` (server and token)
// berth.json is committed with a project, so it never holds a token. The config file's token is
// used only with the config file's own server: a berth.json or a variable pointing elsewhere must
// not make the CLI send one server's token to another.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseJsonObject, readUserConfig, type UserConfig } from "./config";
import { CliError } from "./errors";

export const PROJECT_FILE = "berth.json";

export interface ProjectFile {
  server?: string;
  site?: string;
}

export interface Settings {
  server: string | undefined;
  token: string | undefined;
  site: string | undefined;
  /** Where each came from, for messages ("BERTH_TOKEN", "berth.json", "the config file"). */
  sources: { server?: string; token?: string; site?: string };
  /** The project file that was read, if any. */
  projectFile: string | undefined;
}

export interface SettingsInput {
  flags: { server?: string | undefined; site?: string | undefined };
  env: NodeJS.ProcessEnv;
  /** Folders to look for berth.json in, the first found wins (the deployed folder, then the current one). */
  projectDirs: string[];
  configFile: string;
}

export function readProjectFile(dirs: string[]): { file: string; project: ProjectFile } | undefined {
  for (const dir of dirs) {
    const file = path.join(dir, PROJECT_FILE);
    if (!existsSync(file)) continue;
    const parsed = parseJsonObject(readFileSync(file, "utf8"), file);
    const project: ProjectFile = {};
    for (const key of ["server", "site"] as const) {
      const value = parsed[key];
      if (value === undefined) continue;
      if (typeof value !== "string" || value.trim() === "") throw new CliError(`${file}: "${key}" must be a non-empty string`);
      project[key] = value.trim();
    }
    return { file, project };
  }
  return undefined;
}

/** A server address as the CLI uses it: http(s), no trailing slash. */
export function normalizeServer(value: string, from: string): string {
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw new CliError(`${from}: "${value}" is not a server address (try https://berth.example.com)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new CliError(`${from}: the server address must start with https:// or http://`);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value.trim());

export function resolveSettings(input: SettingsInput): Settings {
  const found = readProjectFile(input.projectDirs);
  const project = found?.project ?? {};
  const projectName = found ? path.relative(process.cwd(), found.file) || PROJECT_FILE : PROJECT_FILE;
  const config: UserConfig = readUserConfig(input.configFile);
  const sources: Settings["sources"] = {};

  const pick = (candidates: [string | undefined, string][], key: keyof Settings["sources"]): string | undefined => {
    for (const [value, from] of candidates) {
      const usable = nonEmpty(value);
      if (usable !== undefined) {
        sources[key] = from;
        return usable;
      }
    }
    return undefined;
  };

  const rawServer = pick(
    [
      [input.flags.server, "--server"],
      [input.env.BERTH_SERVER, "BERTH_SERVER"],
      [project.server, projectName],
      [config.server, input.configFile],
    ],
    "server",
  );
  const server = rawServer === undefined ? undefined : normalizeServer(rawServer, sources.server!);
  const configServer = config.server === undefined ? undefined : safeNormalize(config.server);
  const token = pick(
    [
      [input.env.BERTH_TOKEN, "BERTH_TOKEN"],
      [server !== undefined && configServer === server ? config.token : undefined, input.configFile],
    ],
    "token",
  );
  const site = pick(
    [
      [input.flags.site, "--site"],
      [input.env.BERTH_SITE, "BERTH_SITE"],
      [project.site, projectName],
    ],
    "site",
  );
  return { server, token, site, sources, projectFile: found?.file };
}

function safeNormalize(value: string): string | undefined {
  try {
    return normalizeServer(value, "config");
  } catch {
    return undefined;
  }
}
