// `npm run berth -- restore <file> [--data-dir <dir>]`: see server/backup/restoreBackup.ts.
import path from "node:path";
import { formatBytes } from "../../common/format";
import { restoreBackup } from "../backup/restoreBackup";
import { sharedBlobDir } from "../backup/sharedBlobs";
import type { Env } from "../env";
import type { CliIo } from "./run";

export async function runRestore(env: Env, file: string, io: CliIo): Promise<void> {
  const { manifest, secret, target } = await restoreBackup(file, env);
  const lines = [
    `Restored ${file} (Berth ${manifest.berthVersion}, as of ${manifest.createdAt}) into ${env.dataDir}.`,
    `  database  ${target.database === "postgres" ? "PostgreSQL at DATABASE_URL" : `PGlite in ${env.dataDir}/db`}` +
      (target.database === manifest.database.kind ? "" : ` (the backup was ${manifest.database.kind === "pglite" ? "PGlite" : "PostgreSQL"})`),
    `  blobs     ${manifest.blobs.count} (${formatBytes(manifest.blobs.bytes)}) ${target.blobs === "s3" ? "in the bucket BERTH_S3_BUCKET" : `in ${env.dataDir}/blobs`}` +
      (manifest.formatVersion === 2 ? `, from ${sharedBlobDir(path.dirname(file))}` : ""),
    `  secret    ${env.dataDir}/secret`,
  ];
  if (env.secret && env.secret !== secret) {
    lines.push(
      "Warning: BERTH_SECRET is set to another secret than the backup's. Start Berth without BERTH_SECRET (the restored",
      "secret file is then used) or with the backup's secret, or every session, share link and site-password cookie is invalid.",
    );
  }
  lines.push(`Start Berth with BERTH_DATA_DIR=${env.dataDir}${target.database === "postgres" ? " and the same DATABASE_URL" : ""}.`, "");
  io.stdout(lines.join("\n"));
}
