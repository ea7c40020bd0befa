// A site's _redirects and _headers, read from what is being published (the working tree, or a
// deploy's manifest) and parsed. A bad line fails the publish with the line number and the reason.
import type { AppContext } from "../context";
import { findSiteFileByPath } from "../db/repositories/siteFiles";
import { parseRedirects } from "../siteConfig/redirects";
import { parseHeaders } from "../siteConfig/headers";
import { EMPTY_CONFIG, type SiteConfig } from "../siteConfig/siteConfig";

/** Larger configuration files are refused rather than read into memory. */
export const MAX_CONFIG_BYTES = 512 * 1024;

export class SiteConfigError extends Error {}

/** Where a configuration file's bytes are: its blob and size, or undefined when there is no such file. */
export type ConfigFileLookup = (path: "_redirects" | "_headers") => Promise<{ sha256: string; size: number } | undefined>;

async function readText(ctx: Pick<AppContext, "blobs">, lookup: ConfigFileLookup, path: "_redirects" | "_headers"): Promise<string | undefined> {
  const file = await lookup(path);
  if (!file) return undefined;
  if (file.size > MAX_CONFIG_BYTES) throw new SiteConfigError(`${path} is larger than ${MAX_CONFIG_BYTES / 1024} KB`);
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.blobs.get(file.sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The configuration of the files `lookup` finds. */
export async function readConfigFiles(ctx: Pick<AppContext, "blobs">, lookup: ConfigFileLookup): Promise<SiteConfig> {
  const [redirectsText, headersText] = await Promise.all([readText(ctx, lookup, "_redirects"), readText(ctx, lookup, "_headers")]);
  if (redirectsText === undefined && headersText === undefined) return EMPTY_CONFIG;
  const redirects = redirectsText === undefined ? { ok: true as const, rules: [] } : parseRedirects(redirectsText);
  if (!redirects.ok) throw new SiteConfigError(redirects.error);
  const headers = headersText === undefined ? { ok: true as const, rules: [] } : parseHeaders(headersText);
  if (!headers.ok) throw new SiteConfigError(headers.error);
  return { redirects: redirects.rules, headers: headers.rules };
}

/** The configuration of the site's working tree. */
export async function readSiteConfig(ctx: Pick<AppContext, "db" | "blobs">, siteId: string): Promise<SiteConfig> {
  return readConfigFiles(ctx, async (path) => {
    const file = await findSiteFileByPath(ctx.db, siteId, path);
    return file && !file.is_folder && file.sha256 ? { sha256: file.sha256, size: file.file_size } : undefined;
  });
}
