// `npm run berth -- backup` while Berth runs on PGlite: PGlite is single-process, so the running
// server makes the snapshot and streams the archive to the CLI over its admin socket
// (server/adminSocket.ts, POST /backup). The CLI writes the file, so it lands where the operator
// asked and belongs to them, and checks it before keeping it.
import http from "node:http";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { CommandContext } from "../services/admin/runCommand";
import { writeBackup } from "./createBackup";
import { readServerSecret } from "./serverSecret";

export const BACKUP_SOCKET_PATH = "/backup";

/** The server's side: a 200 and the archive, or the connection cut if the backup fails part-way. */
export async function serveBackup(ctx: Pick<CommandContext, "db" | "blobs" | "env" | "log">, response: http.ServerResponse): Promise<void> {
  const secret = readServerSecret(ctx.env);
  if (!secret) throw new Error("This server has no secret to back up");
  ctx.log.info("backup requested over the admin socket");
  response.writeHead(200, { "content-type": "application/gzip" });
  try {
    const manifest = await writeBackup({ db: ctx.db, blobs: ctx.blobs, secret }, response);
    ctx.log.info({ blobs: manifest.blobs.count, bytes: manifest.blobs.bytes }, "backup sent over the admin socket");
  } catch (error) {
    ctx.log.error({ err: error }, "backup over the admin socket failed");
    // An archive without its end never passes the CLI's check.
    response.destroy();
  }
}

/** The server refused the backup; the message is its explanation. */
export class BackupRefusedError extends Error {}

/** The CLI's side: asks the server at `socketPath` for a backup and writes it into `out`. */
export function receiveBackup(socketPath: string, out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, method: "POST", path: BACKUP_SOCKET_PATH, agent: false }, (response) => {
      if (response.statusCode === 200) {
        pipeline(response, out).then(resolve, reject);
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        let message = `Berth answered ${response.statusCode}.`;
        try {
          message = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error?: { message?: string } }).error?.message ?? message;
        } catch {
          // Not JSON: the status says enough.
        }
        out.destroy();
        reject(new BackupRefusedError(message));
      });
    });
    request.on("error", (error) => {
      out.destroy();
      reject(error);
    });
    request.end();
  });
}
