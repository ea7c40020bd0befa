// `berth backup <file>` and `berth restore <file> [--data-dir <dir>]`: the command line, parsed.
import { UsageError } from "./args";

export const BACKUP_USAGE = `Usage: npm run berth -- backup <file>
       npm run berth -- restore <file> [--data-dir <dir>]

  backup <file>     write one archive (gzipped tar) of the database, every blob it refers to and the
                    server secret; works while Berth runs. The file holds secrets: keep it private.
  restore <file>    check the archive, then rebuild Berth from it into a new or empty data directory
                    (--data-dir, else BERTH_DATA_DIR) and, with DATABASE_URL, an empty database;
                    blobs go to BERTH_S3_BUCKET when it is set. A damaged archive writes nothing.
                    A daily backup (BERTH_DATA_DIR/backups/berth-YYYY-MM-DD.tar.gz, or a copy of
                    that folder) reads its blobs from the blobs folder beside it.

Both use the same settings as the server (BERTH_DATA_DIR, DATABASE_URL, BERTH_S3_BUCKET, …).`;

export type BackupCommand = { kind: "help" } | { kind: "backup"; file: string } | { kind: "restore"; file: string; dataDir?: string };

export const isBackupCommand = (argv: readonly string[]) => argv[0] === "backup" || argv[0] === "restore";

export function parseBackupArgs(argv: readonly string[]): BackupCommand {
  const [name, ...rest] = argv;
  const positional: string[] = [];
  let dataDir: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--help" || arg === "-h" || arg === "help") return { kind: "help" };
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (key !== "data-dir") throw new UsageError(`Unknown option --${key}.`);
    if (name !== "restore") throw new UsageError(`${name} does not take --data-dir.`);
    const value = eq === -1 ? rest[++i] : arg.slice(eq + 1);
    if (value === undefined || value === "") throw new UsageError("--data-dir needs a directory.");
    dataDir = value;
  }
  if (positional.length !== 1 || positional[0] === "") {
    throw new UsageError(name === "restore" ? "Usage: npm run berth -- restore <file> [--data-dir <dir>]" : "Usage: npm run berth -- backup <file>");
  }
  const file = positional[0]!;
  if (name === "backup") return { kind: "backup", file };
  if (name === "restore") return { kind: "restore", file, ...(dataDir !== undefined ? { dataDir } : {}) };
  throw new UsageError(`Unknown command "${name}".`);
}
