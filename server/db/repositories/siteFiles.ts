import { and, asc, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
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
 * Replaces the site's working tree with a deployment's files and the folders they sit in, in
 * three statements whatever the number of files: what going live with a deployment means
 * (rollback, promotion, a deploy through the API).
 */
export async function resetSiteFilesToDeployment(tx: Executor, siteId: string, deploymentId: string): Promise<void> {
  await deleteAllSiteFiles(tx, siteId);
  // Every proper prefix of every path: "a/b/c.html" → "a", "a/b".
  await tx.execute(sql`
    insert into ${siteFiles} (site_id, file_path, filename, parent_folder, is_folder, file_size)
    select distinct ${siteId}::uuid, array_to_string(p.parts[1:i], '/'), p.parts[i], nullif(array_to_string(p.parts[1:i - 1], '/'), ''), true, 0
    from (select string_to_array(path, '/') as parts from deployment_files where deployment_id = ${deploymentId}) p
    cross join lateral generate_series(1, cardinality(p.parts) - 1) as i`);
  await tx.execute(sql`
    insert into ${siteFiles} (site_id, file_path, filename, parent_folder, file_type, file_size, sha256, is_folder)
    select ${siteId}::uuid, df.path, p.parts[cardinality(p.parts)], nullif(array_to_string(p.parts[1:cardinality(p.parts) - 1], '/'), ''),
           df.content_type, df.size, df.sha256, false
    from deployment_files df cross join lateral (select string_to_array(df.path, '/') as parts) p
    where df.deployment_id = ${deploymentId}`);
}
