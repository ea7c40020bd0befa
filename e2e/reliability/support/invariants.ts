// What must hold after any crash, read straight from the database and the blob directory while
// no Berth process runs (PGlite needs its files to itself; PostgreSQL would not mind):
// no row points at a missing or torn blob, every successful deployment is complete, a site only
// ever serves a successful deployment of its own, and storage used is the sum of the distinct
// blobs kept. What is left over (blobs no row refers to, temporary files) is returned for the
// orphan watch, which checks that the sweeper removes it in time.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../../../server/db/client";
import { rowsOf } from "../../../server/db/rows";
import { storageUsedByUser } from "../../../server/db/repositories/usage";
import { createFsBlobStore } from "../../../server/storage/fs";

export interface SiteRow {
  id: string;
  user_id: string;
  subdomain: string;
  is_deleted: boolean;
  deleted_at: Date | null;
  live_deployment_id: string | null;
}

export interface DeploymentRow {
  id: string;
  site_id: string;
  version: number;
  status: string;
  file_count: number;
  total_size: number;
}

/** path → sha256 */
export type Tree = Map<string, string>;

export interface DbState {
  sites: Map<string, SiteRow>;
  deployments: Map<string, DeploymentRow>;
  /** deployment id → its manifest */
  manifests: Map<string, Tree>;
  /** site id → its working tree (files only) */
  trees: Map<string, Tree>;
  /** sha256 → the tables whose rows point at it */
  references: Map<string, Set<string>>;
  avatars: Map<string, string>;
}

export interface StoreState {
  /** sha256 → size and modification time of the blob's file */
  blobs: Map<string, { size: number; mtimeMs: number }>;
  /** temporary files (blob store's tmp/ and the data directory's tmp/) → modification time */
  temps: Map<string, number>;
}

export interface Leftovers {
  /** blobs in the store no row refers to → mtime */
  blobs: Map<string, number>;
  temps: Map<string, number>;
}

export async function readDbState(db: Db): Promise<DbState> {
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
  const sites = await rows<SiteRow>(sql`select id, user_id, subdomain, is_deleted, deleted_at, live_deployment_id from sites`);
  const deployments = await rows<DeploymentRow>(
    sql`select id, site_id, version, status, file_count, total_size::float8 as total_size from deployments`,
  );
  const manifestRows = await rows<{ deployment_id: string; path: string; sha256: string }>(
    sql`select deployment_id, path, sha256 from deployment_files`,
  );
  const treeRows = await rows<{ site_id: string; file_path: string; sha256: string }>(
    sql`select site_id, file_path, sha256 from site_files where not is_folder`,
  );
  const variantRows = await rows<{ sha256: string; variant_sha256: string | null }>(sql`select sha256, variant_sha256 from blob_variants`);
  const avatarRows = await rows<{ id: string; avatar_sha256: string }>(sql`select id, avatar_sha256 from profiles where avatar_sha256 is not null`);

  const references = new Map<string, Set<string>>();
  const refer = (sha: string, table: string) => {
    let tables = references.get(sha);
    if (!tables) references.set(sha, (tables = new Set()));
    tables.add(table);
  };
  const manifests = new Map<string, Tree>();
  for (const r of manifestRows) {
    let tree = manifests.get(r.deployment_id);
    if (!tree) manifests.set(r.deployment_id, (tree = new Map()));
    tree.set(r.path, r.sha256);
    refer(r.sha256, "deployment_files");
  }
  const trees = new Map<string, Tree>();
  for (const r of treeRows) {
    let tree = trees.get(r.site_id);
    if (!tree) trees.set(r.site_id, (tree = new Map()));
    tree.set(r.file_path, r.sha256);
    refer(r.sha256, "site_files");
  }
  for (const r of variantRows) {
    refer(r.sha256, "blob_variants.sha256");
    if (r.variant_sha256) refer(r.variant_sha256, "blob_variants.variant_sha256");
  }
  for (const r of avatarRows) refer(r.avatar_sha256, "profiles.avatar_sha256");
  return {
    sites: new Map(sites.map((s) => [s.id, { ...s, deleted_at: s.deleted_at ? new Date(s.deleted_at) : null }])),
    deployments: new Map(deployments.map((d) => [d.id, { ...d, file_count: Number(d.file_count), total_size: Number(d.total_size) }])),
    manifests,
    trees,
    references,
    avatars: new Map(avatarRows.map((r) => [r.id, r.avatar_sha256])),
  };
}

export async function readStoreState(dataDir: string): Promise<StoreState> {
  const blobs = new Map<string, { size: number; mtimeMs: number }>();
  for await (const blob of createFsBlobStore(path.join(dataDir, "blobs")).list()) {
    blobs.set(blob.sha256, { size: blob.size, mtimeMs: blob.modifiedAt.getTime() });
  }
  const temps = new Map<string, number>();
  for (const dir of [path.join(dataDir, "blobs", "tmp"), path.join(dataDir, "tmp")]) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      if (info) temps.set(path.join(dir, name), info.mtimeMs);
    }
  }
  return { blobs, temps };
}

const verified = new Map<string, number>();

async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Checks the invariants that hold whatever the test did; returns the violations (empty when all
 * hold) and what is left over for the orphan watch.
 */
export async function checkInvariants(
  db: Db,
  dataDir: string,
  state: DbState,
  store: StoreState,
): Promise<{ violations: string[]; leftovers: Leftovers }> {
  const violations: string[] = [];
  const blobRows = new Map(
    rowsOf<{ sha256: string; size: number | string }>(await db.execute(sql`select sha256, size from blobs`)).map((r) => [r.sha256, Number(r.size)]),
  );

  // 1. No row points at a missing blob, and the blob holds the bytes its name says.
  for (const [sha, tables] of state.references) {
    const file = store.blobs.get(sha);
    if (!file) {
      violations.push(`blob ${sha.slice(0, 12)} referenced by ${[...tables].join(", ")} is missing from the store`);
      continue;
    }
    if (!blobRows.has(sha)) violations.push(`blob ${sha.slice(0, 12)} referenced by ${[...tables].join(", ")} has no row in blobs`);
    else if (blobRows.get(sha) !== file.size)
      violations.push(`blob ${sha.slice(0, 12)}: blobs.size ${blobRows.get(sha)} but the file has ${file.size} bytes`);
    if (verified.get(sha) !== file.mtimeMs) {
      const blobFile = path.join(dataDir, "blobs", sha.slice(0, 2), sha.slice(2, 4), sha);
      const actual = await hashFile(blobFile);
      if (actual !== sha) violations.push(`blob ${sha.slice(0, 12)} holds bytes hashing to ${actual.slice(0, 12)} (torn write)`);
      else verified.set(sha, file.mtimeMs);
    }
  }
  const sizes = rowsOf<{ sha256: string; size: number | string; source: string }>(
    await db.execute(sql`
      select sha256, file_size as size, 'site_files' as source from site_files where sha256 is not null
      union all select sha256, size, 'deployment_files' from deployment_files
      union all select variant_sha256, size, 'blob_variants' from blob_variants where variant_sha256 is not null`),
  );
  for (const row of sizes) {
    const file = store.blobs.get(row.sha256);
    if (file && file.size !== Number(row.size))
      violations.push(`${row.source} says blob ${row.sha256.slice(0, 12)} has ${row.size} bytes, the file ${file.size}`);
  }

  // 2. Deployments: a successful one is complete, any other has no files; a site serves only a
  //    successful deployment of its own.
  for (const d of state.deployments.values()) {
    const manifest = state.manifests.get(d.id) ?? new Map<string, string>();
    if (d.status === "success") {
      const total = [...manifest.values()].reduce((sum, sha) => sum + (store.blobs.get(sha)?.size ?? 0), 0);
      if (manifest.size !== d.file_count)
        violations.push(`deployment v${d.version} of ${d.site_id.slice(0, 8)} says ${d.file_count} files, has ${manifest.size}`);
      if (total !== d.total_size)
        violations.push(`deployment v${d.version} of ${d.site_id.slice(0, 8)} says ${d.total_size} bytes, its files have ${total}`);
    } else if (manifest.size > 0) {
      violations.push(`deployment v${d.version} of ${d.site_id.slice(0, 8)} is ${d.status} but has ${manifest.size} files`);
    }
  }
  for (const site of state.sites.values()) {
    if (!site.live_deployment_id) continue;
    const live = state.deployments.get(site.live_deployment_id);
    if (!live) violations.push(`site ${site.subdomain} is live on a deployment that does not exist`);
    else if (live.site_id !== site.id) violations.push(`site ${site.subdomain} is live on another site's deployment`);
    else if (live.status !== "success") violations.push(`site ${site.subdomain} is live on v${live.version}, which is ${live.status}`);
  }

  // 3. Storage used is what the user's distinct blobs weigh in the store.
  const byUser = new Map<string, Set<string>>();
  for (const site of state.sites.values()) {
    const shas = byUser.get(site.user_id) ?? new Set<string>();
    byUser.set(site.user_id, shas);
    for (const sha of state.trees.get(site.id)?.values() ?? []) shas.add(sha);
    for (const d of state.deployments.values()) {
      if (d.site_id === site.id) for (const sha of state.manifests.get(d.id)?.values() ?? []) shas.add(sha);
    }
  }
  for (const [userId, shas] of byUser) {
    const expected = [...shas].reduce((sum, sha) => sum + (store.blobs.get(sha)?.size ?? 0), 0);
    const used = await storageUsedByUser(db, userId);
    if (used !== expected) violations.push(`storage used by ${userId.slice(0, 8)} is ${used} bytes, its distinct blobs weigh ${expected}`);
  }

  const leftovers: Leftovers = { blobs: new Map(), temps: new Map(store.temps) };
  for (const [sha, file] of store.blobs) if (!state.references.has(sha)) leftovers.blobs.set(sha, file.mtimeMs);
  return { violations, leftovers };
}
