// PGlite in a directory of the machine's file system, with every file and directory it makes
// owner-only. PGlite's Emscripten file system sets modes itself, so the umask alone does not do:
// the database it creates is unpacked with chmod 0666 (the nobody account could write the live
// database), and Postgres rewrites its relation-cache files with 0644 at every start. Here the
// mounted file system's three mode-setting operations (create, chmod through a path, chmod through
// a descriptor) drop group and other bits before they reach the disk.
//
// PGlite's modules are imported when a database is opened, not with this file: a server on
// PostgreSQL never loads them (they held about 3 MB of its memory).
import { mkdirSync } from "node:fs";
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import type { NodeFS } from "@electric-sql/pglite/nodefs";
import { GROUP_AND_OTHER, PRIVATE_DIR } from "../privateFiles";

type Init = NodeFS["init"];
type EmscriptenOptions = Awaited<ReturnType<Init>>["emscriptenOpts"];

type Operation = (...args: unknown[]) => unknown;

/** The part of Emscripten's NODEFS that creates nodes and changes modes. */
interface ModeOperations {
  node_ops: { mknod: Operation; setattr: Operation };
  stream_ops: { setattr: Operation };
}

const PRIVATE = Symbol("berth.privateModes");

export class PglitePrivateModesError extends Error {}

/** NodeFS, with its modes kept private once Emscripten has mounted it. */
function privateNodeFS(Base: typeof NodeFS): typeof NodeFS {
  return class PrivateNodeFS extends Base {
    override async init(...args: Parameters<Init>): Promise<{ emscriptenOpts: EmscriptenOptions }> {
      const { emscriptenOpts } = await super.init(...args);
      return {
        emscriptenOpts: {
          ...emscriptenOpts,
          preRun: [...(emscriptenOpts.preRun ?? []), (mod) => keepModesPrivate((mod as unknown as { NODEFS: unknown }).NODEFS)],
        },
      };
    }
  };
}

let loaded: Promise<{ PGlite: typeof PGlite; PrivateNodeFS: typeof NodeFS }> | undefined;

/** PGlite's class and the private file system, imported the first time a database is opened. */
export function loadPglite(): Promise<{ PGlite: typeof PGlite; PrivateNodeFS: typeof NodeFS }> {
  loaded ??= Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/nodefs")]).then(([pglite, nodefs]) => ({
    PGlite: pglite.PGlite,
    PrivateNodeFS: privateNodeFS(nodefs.NodeFS),
  }));
  return loaded;
}

/** A PGlite whose data directory is `dir`, created owner-only like everything in it. */
export async function openPrivatePglite(dir: string, options: Omit<PGliteOptions, "dataDir" | "fs"> = {}): Promise<PGlite> {
  const { PGlite, PrivateNodeFS } = await loadPglite();
  // NodeFS would make a missing directory with the umask's mode.
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  return new PGlite({ ...options, fs: new PrivateNodeFS(dir) });
}

function keepModesPrivate(nodefs: unknown): void {
  if (!hasModeOperations(nodefs)) {
    // Better no database than one every account on the machine can write: a PGlite upgrade that
    // changed its file system fails here (and in privatePglite.test.ts) instead.
    throw new PglitePrivateModesError("PGlite's file system has changed shape: Berth cannot keep the database's files owner-only.");
  }
  const patched = nodefs as ModeOperations & { [PRIVATE]?: true };
  if (patched[PRIVATE]) return;
  patched[PRIVATE] = true;
  // mknod(parent, name, mode, dev) and setattr(node or stream, attr): only the mode changes.
  nodefs.node_ops.mknod = narrowing(nodefs.node_ops.mknod, 2, withoutOthers);
  nodefs.node_ops.setattr = narrowing(nodefs.node_ops.setattr, 1, withPrivateMode);
  nodefs.stream_ops.setattr = narrowing(nodefs.stream_ops.setattr, 1, withPrivateMode);
}

/** `operation` with its argument at `index` passed through `narrow` first. */
function narrowing(operation: Operation, index: number, narrow: (value: unknown) => unknown): Operation {
  return function (this: unknown, ...args: unknown[]) {
    args[index] = narrow(args[index]);
    return operation.apply(this, args);
  };
}

function withoutOthers(mode: unknown): unknown {
  return typeof mode === "number" ? mode & ~GROUP_AND_OTHER : mode;
}

function withPrivateMode(attr: unknown): unknown {
  if (typeof attr !== "object" || attr === null || !("mode" in attr) || typeof attr.mode !== "number") return attr;
  return { ...attr, mode: attr.mode & ~GROUP_AND_OTHER };
}

function hasModeOperations(value: unknown): value is ModeOperations {
  const fs = value as Partial<ModeOperations> | undefined;
  return typeof fs?.node_ops?.mknod === "function" && typeof fs.node_ops.setattr === "function" && typeof fs.stream_ops?.setattr === "function";
}
