// What the test knows about each site, and which states an operation may leave it in. An
// operation answered 2xx before the kill must have happened entirely; one that was not answered
// may have happened or not, or stopped between two steps that each commit on their own (an upload
// committed to the working tree whose publish never ran) — never anything else, and never to another site.
import type { DbState, SiteRow, Tree } from "./invariants";

export interface SiteModel {
  id: string;
  subdomain: string;
  tree: Tree;
  liveId: string | null;
  liveFiles: Tree;
  deleted: boolean;
}

/** A state a site may be found in. `live`: "same" (unchanged), "new" (a deployment made by this operation), or an id. */
export interface SiteState {
  label: string;
  exists: boolean;
  tree?: Tree;
  live?: "same" | "new" | { id: string };
  /** The files the live deployment must hold. */
  liveFiles?: Tree;
  deleted?: boolean;
}

export const sameTree = (a: Tree, b: Tree) => a.size === b.size && [...a].every(([p, sha]) => b.get(p) === sha);

export function describeTreeDifference(actual: Tree, expected: Tree): string {
  const missing = [...expected.keys()].filter((p) => !actual.has(p));
  const extra = [...actual.keys()].filter((p) => !expected.has(p));
  const changed = [...expected.keys()].filter((p) => actual.has(p) && actual.get(p) !== expected.get(p));
  const few = (list: string[]) => `${list.length}${list.length ? ` (${list.slice(0, 3).join(", ")})` : ""}`;
  return `missing ${few(missing)}, extra ${few(extra)}, changed ${few(changed)}`;
}

/** Why `site` (as read from the database) is not in `state`, or undefined when it is. */
export function mismatch(model: SiteModel, state: SiteState, row: SiteRow | undefined, db: DbState): string | undefined {
  if (!row) return state.exists ? "the site is gone" : undefined;
  if (!state.exists) return "the site still exists";
  if (state.deleted !== undefined && row.is_deleted !== state.deleted) return `is_deleted is ${row.is_deleted}`;
  const tree = db.trees.get(row.id) ?? new Map<string, string>();
  if (state.tree && !sameTree(tree, state.tree)) return `working tree: ${describeTreeDifference(tree, state.tree)}`;
  const live = state.live;
  if (live === "same" && row.live_deployment_id !== model.liveId) return "the live deployment changed";
  if (live === "new" && (row.live_deployment_id === null || row.live_deployment_id === model.liveId)) return "no new deployment is live";
  if (typeof live === "object" && row.live_deployment_id !== live.id) return `live is not ${live.id.slice(0, 8)}`;
  if (state.liveFiles && row.live_deployment_id) {
    const files = db.manifests.get(row.live_deployment_id) ?? new Map<string, string>();
    if (!sameTree(files, state.liveFiles)) return `live files: ${describeTreeDifference(files, state.liveFiles)}`;
  }
  return undefined;
}

/** The site as it is now: the model follows the database once a state has been accepted. */
export function resync(model: SiteModel, row: SiteRow, db: DbState): void {
  model.tree = new Map(db.trees.get(row.id) ?? []);
  model.liveId = row.live_deployment_id;
  model.liveFiles = new Map(row.live_deployment_id ? (db.manifests.get(row.live_deployment_id) ?? []) : []);
  model.deleted = row.is_deleted;
}

export const unchanged = (model: SiteModel): SiteState => ({
  label: "unchanged",
  exists: true,
  tree: model.tree,
  live: "same",
  deleted: model.deleted,
});

export function withFiles(tree: Tree, files: ReadonlyArray<{ path: string; sha: string }>): Tree {
  const next = new Map(tree);
  for (const f of files) next.set(f.path, f.sha);
  return next;
}
