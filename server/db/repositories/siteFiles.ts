import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { siteFiles } from "../schema";

export type SiteFile = typeof siteFiles.$inferSelect;

export interface NewFile {
  path: string;
  sha256: string;
  size: number;
  contentType: string;
}

export class PathConflictError extends Error {
  constructor(
    readonly path: string,
    readonly existing: "file" | "folder",
  ) {
    super(existing === "folder" ? `A folder named ${path} already exists` : `A file named ${path} already exists`);
  }
}

function split(path: string): { filename: string; parent: string | null } {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? { filename: path, parent: null } : { filename: path.slice(slash + 1), parent: path.slice(0, slash) };
}

/** One folder's listing: folders first, then by name. */
export async function listSiteFilesInFolder(db: Executor, siteId: string, parent: string | null): Promise<SiteFile[]> {
  return db
    .select()
    .from(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), parent === null ? isNull(siteFiles.parent_folder) : eq(siteFiles.parent_folder, parent)))
    .orderBy(desc(siteFiles.is_folder), asc(siteFiles.filename));
}

/** Every file of the working tree (no folders) with its digest and size, by path: a deploy's manifest. */
export async function listWorkingTreeFiles(db: Executor, siteId: string): Promise<{ path: string; sha256: string; size: number }[]> {
  return db
    .select({ path: siteFiles.file_path, sha256: sql<string>`${siteFiles.sha256}`, size: siteFiles.file_size })
    .from(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), eq(siteFiles.is_folder, false), isNotNull(siteFiles.sha256)))
    .orderBy(asc(siteFiles.file_path));
}

/** The working tree's folders that hold nothing, by path: what a manifest, listing files only, would lose. */
export async function listEmptyFolders(db: Executor, siteId: string): Promise<string[]> {
  const rows = await db
    .select({ path: siteFiles.file_path })
    .from(siteFiles)
    .where(
      and(
        eq(siteFiles.site_id, siteId),
        eq(siteFiles.is_folder, true),
        sql`not exists (select 1 from ${siteFiles} c where c.site_id = ${siteId} and c.parent_folder = ${siteFiles.file_path})`,
      ),
    )
    .orderBy(asc(siteFiles.file_path));
  return rows.map((r) => r.path);
}

/** Whether the working tree holds a file (folders do not count). */
export async function siteHasFiles(db: Executor, siteId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), eq(siteFiles.is_folder, false)))
    .limit(1);
  return row !== undefined;
}

export async function getSiteFile(db: Executor, siteId: string, fileId: string): Promise<SiteFile | undefined> {
  const [row] = await db
    .select()
    .from(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), eq(siteFiles.id, fileId)));
  return row;
}

export async function findSiteFileByPath(db: Executor, siteId: string, path: string): Promise<SiteFile | undefined> {
  const [row] = await db
    .select()
    .from(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), eq(siteFiles.file_path, path)));
  return row;
}

/** Every ancestor folder of the given paths ("a/b/c.html" → "a", "a/b"). */
export function ancestorFolders(paths: Iterable<string>): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  return [...folders].sort();
}

/** Creates the folders that are missing. A file standing where a folder must go is a conflict. */
export async function ensureFolders(tx: Executor, siteId: string, folders: string[]): Promise<void> {
  if (folders.length === 0) return;
  const clash = await tx
    .select({ path: siteFiles.file_path })
    .from(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), inArray(siteFiles.file_path, folders), eq(siteFiles.is_folder, false)))
    .limit(1);
  if (clash[0]) throw new PathConflictError(clash[0].path, "file");
  await tx
    .insert(siteFiles)
    .values(folders.map((path) => ({ site_id: siteId, file_path: path, ...nameOf(path), is_folder: true, file_size: 0 })))
    .onConflictDoNothing();
}

function nameOf(path: string) {
  const { filename, parent } = split(path);
  return { filename, parent_folder: parent };
}

/** Adds files, replacing files at the same paths. A folder standing at a file's path is a conflict. */
export async function upsertFiles(tx: Executor, siteId: string, files: NewFile[]): Promise<SiteFile[]> {
  if (files.length === 0) return [];
  const rows: SiteFile[] = [];
  // Chunked: one statement per few hundred rows keeps the parameter count under PostgreSQL's limit.
  for (let i = 0; i < files.length; i += 500) {
    const chunk = files.slice(i, i + 500);
    const written = await tx
      .insert(siteFiles)
      .values(
        chunk.map((f) => ({
          site_id: siteId,
          file_path: f.path,
          ...nameOf(f.path),
          file_type: f.contentType,
          file_size: f.size,
          sha256: f.sha256,
          is_folder: false,
        })),
      )
      .onConflictDoUpdate({
        target: [siteFiles.site_id, siteFiles.file_path],
        set: {
          sha256: sql`excluded.sha256`,
          file_size: sql`excluded.file_size`,
          file_type: sql`excluded.file_type`,
          updated_at: sql`now()`,
        },
        setWhere: sql`${siteFiles.is_folder} = false`,
      })
      .returning();
    if (written.length !== chunk.length) {
      const done = new Set(written.map((r) => r.file_path));
      throw new PathConflictError(chunk.find((f) => !done.has(f.path))!.path, "folder");
    }
    rows.push(...written);
  }
  return rows;
}

/** Deletes a file, or a folder with everything under it. Returns how many rows went. */
export async function deleteSiteFileTree(tx: Executor, siteId: string, path: string): Promise<number> {
  const deleted = await tx
    .delete(siteFiles)
    .where(and(eq(siteFiles.site_id, siteId), or(eq(siteFiles.file_path, path), sql`starts_with(${siteFiles.file_path}, ${path + "/"})`)))
    .returning({ id: siteFiles.id });
  return deleted.length;
}

export async function deleteAllSiteFiles(tx: Executor, siteId: string): Promise<void> {
  await tx.delete(siteFiles).where(eq(siteFiles.site_id, siteId));
}

/**
 * Makes the site's working tree a deployment's files and the folders they sit in: what going live
 * with a deployment means (rollback, promotion, a deploy through the API). Rows that already match
 * stay as they are, so a redeploy of 1,000 files that changes one writes one row (and the quota's
 * triggers count one change), not 2,000.
 */
export async function resetSiteFilesToDeployment(tx: Executor, siteId: string, deploymentId: string): Promise<void> {
  // Every file of the deployment, and every folder its files sit in. The folders come from the
  // distinct parent paths ("a/b/c.html" → "a/b" → "a", "a/b"): a site has far fewer folders than
  // files, and splitting every file's path cost a redeploy of 1,000 files a third of this statement.
  const target = sql`
    with files as (select df.path, df.sha256, df.size, df.content_type from deployment_files df where df.deployment_id = ${deploymentId}),
    parents as (
      select distinct string_to_array(left(f.path, length(f.path) - strpos(reverse(f.path), '/')), '/') as parts
      from files f where strpos(f.path, '/') > 0)
    select distinct array_to_string(p.parts[1:i], '/') as file_path, true as is_folder,
           null::text as file_type, 0::bigint as file_size, null::text as sha256
    from parents p cross join lateral generate_series(1, cardinality(p.parts)) as i
    union all
    select f.path, false, f.content_type, f.size, f.sha256 from files f`;
  // One statement, so the target is computed once: rows that differ go (`gone`), and the target's
  // rows are inserted where no row is, or where `gone` just took one (the CTE's deletions are not
  // visible to the insert's own check, hence the second condition; the unique index sees them).
  // A row's name and parent folder are worked out only for the rows inserted.
  await tx.execute(sql`
    with target as (${target}),
    gone as (
      delete from ${siteFiles} sf where sf.site_id = ${siteId} and not exists (
        select 1 from target t
        where t.file_path = sf.file_path and t.is_folder = sf.is_folder
          and (t.is_folder or (t.sha256 = sf.sha256 and t.file_size = sf.file_size and t.file_type is not distinct from sf.file_type)))
      returning sf.file_path)
    insert into ${siteFiles} (site_id, file_path, filename, parent_folder, is_folder, file_type, file_size, sha256)
    select ${siteId}::uuid, t.file_path, regexp_replace(t.file_path, '^.*/', ''), nullif(regexp_replace(t.file_path, '/?[^/]*$', ''), ''),
           t.is_folder, t.file_type, t.file_size, t.sha256
    from target t
    where not exists (select 1 from ${siteFiles} sf where sf.site_id = ${siteId} and sf.file_path = t.file_path)
       or t.file_path in (select file_path from gone)`);
}

/** Deletes those of the given folders that hold nothing any more, the deepest first. */
export async function deleteEmptyFolders(tx: Executor, siteId: string, folders: string[]): Promise<void> {
  const deepestFirst = [...new Set(folders)].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const folder of deepestFirst) {
    await tx.execute(sql`
      delete from ${siteFiles} f where f.site_id = ${siteId} and f.is_folder and f.file_path = ${folder}
        and not exists (select 1 from ${siteFiles} c where c.site_id = ${siteId} and starts_with(c.file_path, ${folder + "/"}))`);
  }
}
