// berth deploy [dir]: publish a folder as a new version of a site, sending only the files the
// server does not hold yet (common/deploys.ts has the API). Steps: list and hash the folder,
// send the manifest, upload what is missing, publish. stdout gets only the
// address (the live site, or the draft's own), or with --json one object describing the deploy.
import path from "node:path";
import type { DeployResponse } from "../../../common/deploys";
import type { SiteResponse } from "../../../common/sites";
import { connect, findSite, settingsOf, type Context } from "../context";
import { traceOf } from "../debug";
import { ApiError, CliError, UsageError } from "../errors";
import { formatBytes, formatSeconds, plural } from "../format";
import type { BerthClient } from "../http";
import { PROJECT_FILE } from "../settings";
import { changedWhileDeploying, digestTar, planUploads, runUploads, sendWithPublish } from "../upload";
import { digestCachePath, readDigestCache, writeDigestCache, type CachedDigest } from "../digestCache";
import { rememberedSite, rememberSite, type SiteRef } from "../siteCache";
import { hashFiles, walkFolder, type HashedFile } from "../walk";

export interface DeployOptions {
  server?: string | undefined;
  site?: string | undefined;
  create?: string | undefined;
  draft?: boolean | undefined;
  message?: string | undefined;
  json?: boolean | undefined;
}

export interface DeployResult {
  site: string;
  version: number;
  url: string;
  draft: boolean;
  files: number;
  files_uploaded: number;
  bytes_uploaded: number;
  seconds: number;
}

export async function deploy(ctx: Context, dirArgument: string | undefined, options: DeployOptions): Promise<DeployResult> {
  const started = Date.now();
  const trace = traceOf(ctx);
  trace("deploy started");
  if (options.site !== undefined && options.create !== undefined) throw new UsageError("choose one of --site and --create", "deploy");
  if (options.create !== undefined && options.create.trim() === "") throw new UsageError("--create needs a site name", "deploy");
  const dir = path.resolve(ctx.cwd, dirArgument ?? ".");
  const settings = settingsOf(ctx, { server: options.server, site: options.site }, [dir, ctx.cwd]);
  if (options.create === undefined && settings.site === undefined) {
    throw new UsageError(`no site chosen: pass --site SUBDOMAIN or --create NAME, or put {"site": "SUBDOMAIN"} in ${PROJECT_FILE}`, "deploy");
  }
  const client = connect(ctx, settings);
  const { reporter } = ctx;

  // A site deployed to before is known by the id remembered then (siteCache.ts); otherwise it is
  // looked up while the folder is read, since neither needs the other. A mistake in the folder (an
  // empty folder, an unreadable file) is still the one reported.
  const remembered = options.create === undefined ? rememberedSite(ctx.env, client.server, settings.site!) : undefined;
  const sitePromise = options.create !== undefined || remembered !== undefined ? undefined : findSite(client, settings.site!);
  sitePromise?.catch(() => undefined);
  const walked = await walkFolder(dir);
  trace(`walked the folder: ${walked.files.length} files`);
  for (const warning of walked.warnings) reporter.line(`warning: ${warning}`);
  if (walked.files.length === 0) throw new CliError(`${displayPath(ctx, dir)} has no files to deploy`);
  const totalBytes = walked.files.reduce((sum, f) => sum + f.size, 0);
  let hashedBytes = 0;
  let hashedFiles = 0;
  const cacheFile = digestCachePath(ctx.env, walked.root);
  const cache = readDigestCache(cacheFile);
  const files = await hashFiles(
    walked.files,
    (file) => {
      hashedBytes += file.size;
      hashedFiles += 1;
      reporter.progress("Reading", { doneBytes: hashedBytes, totalBytes, doneFiles: hashedFiles, totalFiles: walked.files.length });
    },
    cache,
  );
  reporter.endProgress();
  writeDigestCache(cacheFile, digestsToRemember(files));
  trace(`hashed: ${files.filter((f) => f.hashedAt !== cache.get(f.path)?.hashedAt).length} files read, the rest unchanged since ${cacheFile}`);

  // A new site only once the folder is known good, so a mistake there creates nothing.
  let site: SiteRef = remembered ?? (sitePromise !== undefined ? await sitePromise : await createSite(client, options.create!.trim()));
  trace("site known");
  if (options.create !== undefined) {
    reporter.line(
      `Created the site ${site.subdomain}. To deploy to it next time: --site ${site.subdomain}, or {"site": "${site.subdomain}"} in ${PROJECT_FILE}.`,
    );
  }
  reporter.line(
    `Deploying ${displayPath(ctx, dir)} (${plural(files.length, "file")}, ${formatBytes(totalBytes)}) to ${site.subdomain} on ${client.server}`,
  );

  const manifest = {
    files: files.map(({ path: p, sha256, size }) => ({ path: p, sha256, size })),
    // Empty folders, which a list of files cannot carry; sent only when there are some.
    ...(walked.folders.length > 0 ? { folders: walked.folders } : {}),
    message: options.message ?? null,
    draft: options.draft === true,
  };
  const open = (target: SiteRef) =>
    client.post<DeployResponse>(`/api/sites/${encodeURIComponent(target.id)}/deploys`, manifest, { idempotent: true, timeoutSeconds: 120 });
  let opened: DeployResponse;
  try {
    opened = await open(site);
  } catch (error) {
    // A remembered id that is no longer this user's site (deleted, or another account's token):
    // the site is looked up by its name, as on a first deploy.
    if (!(remembered !== undefined && error instanceof ApiError && error.status === 404)) throw error;
    site = await findSite(client, settings.site!);
    opened = await open(site);
  }
  rememberSite(ctx.env, client.server, options.create === undefined ? settings.site! : site.subdomain, site);
  trace(`deploy opened: ${opened.missing.length} missing`);
  const sitePath = `/api/sites/${encodeURIComponent(site.id)}/deploys`;
  const base = `${sitePath}/${encodeURIComponent(opened.id)}`;
  const distinct = new Set(files.map((f) => f.sha256)).size;
  const missing = filesFor(files, opened.missing);
  // A small change goes in the publish's own body: two requests in all (sendWithPublish).
  const withPublish = sendWithPublish(missing) ? missing : [];
  let total = withPublish.length > 0 ? countOf(withPublish) : await uploadMissing(ctx, client, base, missing, distinct);
  trace("uploaded");

  // The publish checks, under the locks it takes, that every file is there, so no check goes
  // before it. A file can still go missing after its upload answered (one the server said it held
  // was deleted since): the publish then answers files_missing, and what it lacks is sent again.
  const publish = async (carrying: readonly HashedFile[]) => {
    if (carrying.length === 0) return client.post<DeployResponse>(`${base}/publish`, {}, { idempotent: true, timeoutSeconds: 600 });
    const tar = digestTar(carrying);
    const answer = await client.request<DeployResponse>(`${base}/publish`, {
      method: "POST",
      idempotent: true,
      timeoutSeconds: 600,
      body: () => ({ data: tar, type: "application/x-tar", length: tar.length }),
    });
    return answer.body;
  };
  const draft = options.draft ? " as a draft" : "";
  reporter.line(
    withPublish.length > 0
      ? `Publishing${draft} with ${plural(withPublish.length, "new file")} (${formatBytes(total.bytes)}); ${distinct - withPublish.length} already on the server`
      : `Publishing${draft}…`,
  );
  let published: DeployResponse;
  try {
    published = await publish(withPublish).catch((error: unknown) => {
      // The server hashes what arrives: a file edited since it was hashed here no longer matches.
      if (error instanceof ApiError && (error.code === "digest_mismatch" || error.code === "size_mismatch")) throw changedWhileDeploying(error);
      throw error;
    });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "files_missing")) throw error;
    const check = await client.get<DeployResponse>(base);
    reporter.line(`The server still lacks ${plural(check.missing.length, "file")}; sending ${check.missing.length === 1 ? "it" : "them"} again.`);
    const again = await uploadMissing(ctx, client, base, filesFor(files, check.missing), distinct);
    total = { files: total.files + again.files, bytes: total.bytes + again.bytes };
    published = await publish([]);
  }
  trace("published");
  const deployment = published.deployment;
  if (published.status === "failed" || deployment === null || deployment.status === "failed") {
    throw new CliError(`the publish failed: ${published.error ?? deployment?.error ?? "the server gave no reason"}`);
  }
  const url = options.draft ? deployment.deployment_url : (published.site_url ?? site.url);
  if (!url) throw new CliError("the server published the deploy but sent no address for it");
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  reporter.line(
    `${options.draft ? "Published draft" : "Published"} version ${deployment.version} of ${site.subdomain} in ${formatSeconds(seconds)} ` +
      `(${plural(total.files, "file")} uploaded, ${formatBytes(total.bytes)})${options.draft ? `: berth promote ${site.subdomain} ${deployment.version} makes it live` : ""}`,
  );
  const result: DeployResult = {
    site: site.subdomain,
    version: deployment.version,
    url,
    draft: options.draft === true,
    files: files.length,
    files_uploaded: total.files,
    bytes_uploaded: total.bytes,
    seconds,
  };
  ctx.stdout.write(options.json ? JSON.stringify(result) + "\n" : url + "\n");
  return result;
}

async function createSite(client: BerthClient, name: string): Promise<SiteResponse> {
  // Not retried after a dropped connection: the first try may have made the site.
  return client.post<SiteResponse>("/api/sites", { name }, { idempotent: false });
}

/** One file for each of these digests; the server asking for one this deploy lacks is a bug there. */
function filesFor(files: readonly HashedFile[], digests: readonly string[]): HashedFile[] {
  const byDigest = new Map<string, HashedFile>();
  for (const file of files) if (!byDigest.has(file.sha256)) byDigest.set(file.sha256, file);
  return [...new Set(digests)].map((digest) => {
    const file = byDigest.get(digest);
    if (!file) throw new CliError(`the server asked for a file this deploy does not have (${digest.slice(0, 12)}…)`);
    return file;
  });
}

const countOf = (files: readonly HashedFile[]) => ({ files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) });

/** Uploads these files ahead of the publish; what was sent. `distinct`: the deploy's distinct digests. */
async function uploadMissing(
  ctx: Context,
  client: BerthClient,
  base: string,
  toSend: HashedFile[],
  distinct: number,
): Promise<{ files: number; bytes: number }> {
  if (toSend.length === 0) {
    ctx.reporter.line("Every file is already on the server.");
    return { files: 0, bytes: 0 };
  }
  const totalBytes = countOf(toSend).bytes;
  ctx.reporter.line(`Uploading ${plural(toSend.length, "new file")} (${formatBytes(totalBytes)}); ${distinct - toSend.length} already on the server`);
  const counts = { doneBytes: 0, totalBytes, doneFiles: 0, totalFiles: toSend.length };
  const show = () => ctx.reporter.progress("Uploading", counts);
  await runUploads(client, base, planUploads(toSend), {
    onBytes: (delta) => {
      counts.doneBytes += delta;
      show();
    },
    onFiles: (count) => {
      counts.doneFiles += count;
      show();
    },
  });
  ctx.reporter.endProgress();
  return countOf(toSend);
}

function digestsToRemember(files: readonly HashedFile[]): Map<string, CachedDigest> {
  const digests = new Map<string, CachedDigest>();
  for (const f of files) if (f.stamp && f.hashedAt !== undefined) digests.set(f.path, { ...f.stamp, sha256: f.sha256, hashedAt: f.hashedAt });
  return digests;
}

function displayPath(ctx: Context, dir: string): string {
  const relative = path.relative(ctx.cwd, dir);
  if (relative === "") return ".";
  return relative.startsWith("..") || path.isAbsolute(relative) ? dir : `./${relative}`;
}
