// A site's _redirects and _headers, read from its working tree and parsed when it is published.
// A bad line fails the publish with the line number and the reason.
import type { AppContext } from "../context";
import { findSiteFileByPath } from "../db/repositories/siteFiles";
import { parseRedirects } from "../siteConfig/redirects";
import { parseHeaders } from "../siteConfig/headers";
import { EMPTY_CONFIG, type SiteConfig } from "../siteConfig/siteConfig";

/** Larger configuration files are refused rather than read into memory. */
export const MAX_CONFIG_BYTES = 512 * 1024;

export class SiteConfigError extends Error {}

async function readText(ctx: Pick<AppContext, "db" | "blobs">, siteId: string, path: string): Promise<string | undefined> {
  const file = await findSiteFileByPath(ctx.db, siteId, path);
  if (!file || file.is_folder || !file.sha256) return undefined;
  if (file.file_size > MAX_CONFIG_BYTES) throw new SiteConfigError(`${path} is larger than ${MAX_CONFIG_BYTES / 1024} KB`);
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.blobs.get(file.sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function readSiteConfig(ctx: Pick<AppContext, "db" | "blobs">, siteId: string): Promise<SiteConfig> {
  const [redirectsText, headersText] = await Promise.all([readText(ctx, siteId, "_redirects"), readText(ctx, siteId, "_headers")]);
  if (redirectsText === undefined && headersText === undefined) return EMPTY_CONFIG;
  const redirects = redirectsText === undefined ? { ok: true as const, rules: [] } : parseRedirects(redirectsText);
  if (!redirects.ok) throw new SiteConfigError(redirects.error);
  const headers = headersText === undefined ? { ok: true as const, rules: [] } : parseHeaders(headersText);
  if (!headers.ok) throw new SiteConfigError(headers.error);
  return { redirects: redirects.rules, headers: headers.rules };
}
