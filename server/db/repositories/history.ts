// A site's history, read from the manifests of its kept deployments (deployment_files) and from
// live_periods. Only successful deployments count: a failed one never served anything. Every
// function takes a site id the caller has already found among the user's sites.
import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { deploymentFiles, deployments, livePeriods } from "../schema";

export type LivePeriod = typeof livePeriods.$inferSelect;

/** One version of a file: a deployment in which it was added or its content changed. */
export interface FileVersionRow {
  deployment_id: string;
  version: number;
  published_at: Date;
  sha256: string;
  size: number;
  content_type: string;
  /** Absent from the previous kept deployment (new, or back after a deletion). */
  added: boolean;
}

/** One version of a folder: a deployment in which anything under it was added, changed or removed. */
export interface FolderVersionRow {
  deployment_id: string;
  version: number;
  published_at: Date;
  file_count: number;
  size: number;
  added: boolean;
}

export interface DeletedFileRow {
  path: string;
  /** The last kept deployment that had the file, and the file as it was there. */
  deployment_id: string;
  version: number;
  sha256: string;
  size: number;
  /** The first deployment after it without the file. */
  deleted_in_version: number;
  deleted_at: Date;
}

export interface ManifestEntry {
  path: string;
  sha256: string;
  size: number;
  content_type: string;
}

/**
 * Records that the deployment became the site's live one. Called wherever the live pointer moves,
 * in the same transaction, after the site's row lock: clock_timestamp() is then the moment of the
 * move, where now() would be the transaction's start and could order two moves wrongly.
 */
export async function recordWentLive(tx: Executor, siteId: string, deploymentId: string): Promise<void> {
  await tx.execute(sql`
    insert into ${livePeriods} (site_id, deployment_id, version, started_at)
    select ${siteId}, ${deployments.id}, ${deployments.version}, clock_timestamp()
    from ${deployments} where ${deployments.id} = ${deploymentId} and ${deployments.site_id} = ${siteId}`);
}

/** Every move of the live pointer, oldest first. */
export async function livePeriodsOfSite(db: Executor, siteId: string): Promise<LivePeriod[]> {
  return db.select().from(livePeriods).where(eq(livePeriods.site_id, siteId)).orderBy(asc(livePeriods.started_at), asc(livePeriods.id));
}

/** The move of the live pointer in force at `at`: the newest at or before it. */
export async function livePeriodAt(db: Executor, siteId: string, at: Date): Promise<LivePeriod | undefined> {
  const [row] = await db
    .select()
    .from(livePeriods)
    .where(and(eq(livePeriods.site_id, siteId), lte(livePeriods.started_at, at)))
    .orderBy(desc(livePeriods.started_at), desc(livePeriods.id))
    .limit(1);
  return row;
}

/** The published deployments of a site, as a CTE: the spine every history question walks. */
const published = (siteId: string) => sql`
  select id, version, coalesce(published_at, created_at) as published_at from ${deployments}
  where site_id = ${siteId} and status = 'success'`;

/** The versions of one file, newest first. */
export async function fileVersions(db: Executor, siteId: string, path: string): Promise<FileVersionRow[]> {
  const result = await db.execute(sql`
    with d as (${published(siteId)}),
    f as (
      select d.id, d.version, d.published_at, df.sha256, df.size, df.content_type,
             lag(df.sha256) over (order by d.version) as previous
      from d left join ${deploymentFiles} df on df.deployment_id = d.id and df.path = ${path})
    select id as deployment_id, version, published_at, sha256, size, content_type, previous is null as added
    from f where sha256 is not null and previous is distinct from sha256
    order by version desc`);
  return rowsOf<FileVersionRow>(result).map(normalise);
}

/**
 * The versions of a folder (null: the whole site), newest first: each deployment whose files under
 * it differ from the previous one's, compared by an ordered digest of paths and contents.
 */
export async function folderVersions(db: Executor, siteId: string, folder: string | null): Promise<FolderVersionRow[]> {
  const under = folder === null ? sql`true` : sql`starts_with(df.path, ${folder + "/"})`;
  const result = await db.execute(sql`
    with d as (${published(siteId)}),
    c as (
      select d.id, d.version, d.published_at,
             count(df.path)::int as file_count, coalesce(sum(df.size), 0)::bigint as size,
             md5(coalesce(string_agg(df.path || ' ' || df.sha256, '/' order by df.path), '')) as digest
      from d left join ${deploymentFiles} df on df.deployment_id = d.id and ${under}
      group by d.id, d.version, d.published_at),
    v as (select *, lag(digest) over (order by version) as previous, lag(file_count) over (order by version) as previous_count from c)
    select id as deployment_id, version, published_at, file_count, size, coalesce(previous_count, 0) = 0 as added
    from v where file_count > 0 and previous is distinct from digest
    order by version desc`);
  return rowsOf<FolderVersionRow>(result).map(normalise);
}

/**
 * Files some kept deployment had that the working tree does not: each path once, as it was in the
 * last deployment that had it, and the deployment that dropped it. Newest deletions first.
 */
export async function deletedFiles(db: Executor, siteId: string): Promise<DeletedFileRow[]> {
  const result = await db.execute(sql`
    with d as (${published(siteId)}),
    last as (
      select distinct on (df.path) df.path, d.id as deployment_id, d.version, df.sha256, df.size
      from ${deploymentFiles} df join d on d.id = df.deployment_id
      where not exists (select 1 from site_files sf where sf.site_id = ${siteId} and sf.file_path = df.path and not sf.is_folder)
      order by df.path, d.version desc)
    select last.*, after.version as deleted_in_version, after.published_at as deleted_at
    from last cross join lateral (select version, published_at from d where d.version > last.version order by d.version limit 1) after
    order by after.version desc, last.path`);
  return rowsOf<DeletedFileRow>(result).map(normalise);
}

/** One file of a site's successful deployment. */
export async function manifestEntry(db: Executor, siteId: string, deploymentId: string, path: string): Promise<ManifestEntry | undefined> {
  const [row] = await db
    .select({ path: deploymentFiles.path, sha256: deploymentFiles.sha256, size: deploymentFiles.size, content_type: deploymentFiles.content_type })
    .from(deploymentFiles)
    .innerJoin(deployments, eq(deployments.id, deploymentFiles.deployment_id))
    .where(and(eq(deployments.site_id, siteId), eq(deployments.id, deploymentId), eq(deployments.status, "success"), eq(deploymentFiles.path, path)));
  return row;
}

/** The files of a deployment under a folder (null: all of them), by path. */
export async function manifestUnder(db: Executor, deploymentId: string, folder: string | null): Promise<ManifestEntry[]> {
  return db
    .select({ path: deploymentFiles.path, sha256: deploymentFiles.sha256, size: deploymentFiles.size, content_type: deploymentFiles.content_type })
    .from(deploymentFiles)
    .where(
      and(eq(deploymentFiles.deployment_id, deploymentId), folder === null ? undefined : sql`starts_with(${deploymentFiles.path}, ${folder + "/"})`),
    )
    .orderBy(asc(deploymentFiles.path));
}

export interface ManifestDifference {
  path: string;
  from_sha256: string | null;
  from_size: number | null;
  from_type: string | null;
  to_sha256: string | null;
  to_size: number | null;
  to_type: string | null;
}

/** The paths whose file differs between two deployments' manifests (added, changed or removed), by path. */
export async function manifestDifferences(db: Executor, fromId: string, toId: string): Promise<ManifestDifference[]> {
  const result = await db.execute(sql`
    with a as (select * from ${deploymentFiles} where deployment_id = ${fromId}),
         b as (select * from ${deploymentFiles} where deployment_id = ${toId})
    select coalesce(a.path, b.path) as path,
           a.sha256 as from_sha256, a.size as from_size, a.content_type as from_type,
           b.sha256 as to_sha256, b.size as to_size, b.content_type as to_type
    from a full join b on a.path = b.path
    where a.sha256 is distinct from b.sha256
    order by 1`);
  return rowsOf<ManifestDifference>(result).map((r) => ({
    ...r,
    from_size: r.from_size === null ? null : Number(r.from_size),
    to_size: r.to_size === null ? null : Number(r.to_size),
  }));
}

/** Drivers hand back bigint as strings and timestamps as strings or Dates; the rows above want numbers and Dates. */
function normalise<T extends object>(row: T): T {
  const out = { ...row } as Record<string, unknown>;
  for (const key of ["size", "version", "file_count", "deleted_in_version"]) if (key in out && out[key] !== null) out[key] = Number(out[key]);
  for (const key of ["published_at", "deleted_at"]) if (key in out && out[key] !== null) out[key] = new Date(out[key] as string | Date);
  return out as T;
}
