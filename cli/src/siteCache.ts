// The id of each site the CLI has deployed to, by server and the name it was given (subdomain or
// id), so a redeploy opens its deploy at once instead of first listing every site of the account
// to find the one named. Only a cache: an id the server no longer knows as this user's site
// answers 404, and the deploy then looks the site up and tries again. Ids are not secrets (the
// server checks every request's owner), but the file is owner-only like the rest of the cache.
//
// $XDG_CACHE_HOME/berth/sites.json (else ~/.cache/…); unreadable or damaged, it is ignored, and a
// failure to write it is too.
import { readFileSync } from "node:fs";
import { writePrivateFile } from "./privateFile";
import path from "node:path";
import { cacheDir } from "./digestCache";

/** What a deploy needs of a site before the server has answered about it. */
export interface SiteRef {
  id: string;
  subdomain: string;
  url: string;
}

const VERSION = 1;
/** Sites remembered at most; the oldest go first. */
const MAX_SITES = 200;

const fileOf = (env: NodeJS.ProcessEnv) => path.join(cacheDir(env), "sites.json");
const keyOf = (server: string, name: string) => `${server}\n${name.trim().toLowerCase()}`;

function readAll(env: NodeJS.ProcessEnv): Map<string, SiteRef> {
  const sites = new Map<string, SiteRef>();
  try {
    const parsed = JSON.parse(readFileSync(fileOf(env), "utf8")) as { version?: unknown; sites?: unknown };
    if (parsed.version !== VERSION || !Array.isArray(parsed.sites)) return sites;
    for (const entry of parsed.sites as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 4) continue;
      const [key, id, subdomain, url] = entry as unknown[];
      if (typeof key !== "string" || typeof id !== "string" || typeof subdomain !== "string" || typeof url !== "string") continue;
      sites.set(key, { id, subdomain, url });
    }
  } catch {
    // No cache yet, or one that cannot be read: the site is looked up.
  }
  return sites;
}

export function rememberedSite(env: NodeJS.ProcessEnv, server: string, name: string): SiteRef | undefined {
  return readAll(env).get(keyOf(server, name));
}

export function rememberSite(env: NodeJS.ProcessEnv, server: string, name: string, site: SiteRef): void {
  const sites = readAll(env);
  const key = keyOf(server, name);
  sites.delete(key);
  sites.set(key, { id: site.id, subdomain: site.subdomain, url: site.url });
  const kept = [...sites].slice(-MAX_SITES).map(([k, s]) => [k, s.id, s.subdomain, s.url]);
  const file = fileOf(env);
  try {
    writePrivateFile(file, JSON.stringify({ version: VERSION, sites: kept }));
  } catch {
    // Not remembered: the next deploy looks the site up, nothing more.
  }
}
