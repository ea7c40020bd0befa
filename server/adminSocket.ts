// The live server's door for `berth admin` commands. PGlite is single-process and the server holds
// the data directory's lock, so while it runs the CLI cannot open the database itself; it sends
// the command here instead, and the server runs it with its own context, so its caches and events
// stay right (a ban drops the edge's cached hosts at once). `npm run berth -- backup` comes here
// too, for the same reason: only this process can snapshot its PGlite (server/backup/socketBackup.ts).
//
// HTTP over a Unix socket, $BERTH_DATA_DIR/admin.sock, mode 0600: only the account Berth runs as
// (and root) can connect; connecting needs write permission on the socket file. Endpoints:
//   POST /commands  {AdminCommand}  →  200 AdminCommandResult | 4xx/5xx { error: { code, message } }
//   POST /backup                    →  200 a backup archive (application/gzip), streamed
//   GET  /memory                    →  200 MemoryReport: the heap after a full collection, and the
//                                      edge's caches by part (server/memoryReport.ts)
import { existsSync } from "node:fs";
import { chmod, rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { AppError } from "./errors";
import { BACKUP_SOCKET_PATH, serveBackup } from "./backup/socketBackup";
import { AdminCommand, runAdminCommand, type CommandContext } from "./services/admin/runCommand";
import { memoryAfterCollection } from "./memoryReport";

export const ADMIN_SOCKET_FILE = "admin.sock";
/** Commands are a few hundred bytes; anything much larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;
/** sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, ADMIN_SOCKET_FILE);
}

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

export class SocketPathTooLongError extends Error {
  constructor(readonly socketPath: string) {
    super(
      `The admin socket path ${socketPath} is longer than Unix sockets allow (${MAX_SOCKET_PATH_BYTES} bytes); ` +
        "use a shorter BERTH_DATA_DIR to run admin commands while Berth is running.",
    );
  }
}

export interface AdminSocketOptions {
  /** The edge's memory by part, for GET /memory; absent without the edge role. */
  edgeMemory?: () => unknown;
}

/** Listens on the data directory's admin socket. The caller must hold the data directory's lock. */
export async function startAdminSocket(ctx: CommandContext, dataDir: string, options: AdminSocketOptions = {}): Promise<AdminSocket> {
  const socketPath = adminSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) throw new SocketPathTooLongError(socketPath);
  // We hold the lock, so a socket file left here belongs to a process that died without cleaning up.
  await rm(socketPath, { force: true });
  const server = http.createServer((request, response) => {
    void handle(ctx, options, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  return {
    path: socketPath,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      if (existsSync(socketPath)) await rm(socketPath, { force: true });
    },
  };
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json) });
  response.end(json);
}

const failure = (code: string, message: string) => ({ error: { code, message } });

/** The body, or undefined when it is too large (read to the end all the same, so the answer arrives). */
async function readBody(request: http.IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8");
}

async function handle(ctx: CommandContext, options: AdminSocketOptions, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  try {
    if (request.method === "GET" && request.url === "/memory") {
      request.resume();
      return send(response, 200, memoryAfterCollection(options.edgeMemory));
    }
    if (request.method === "POST" && request.url === BACKUP_SOCKET_PATH) {
      request.resume();
      return await serveBackup(ctx, response);
    }
    if (request.method !== "POST" || request.url !== "/commands") {
      request.resume();
      return send(response, 404, failure("not_found", "Not found"));
    }
    const body = await readBody(request);
    if (body === undefined) return send(response, 413, failure("too_large", "The command is too large"));
    let parsed: ReturnType<typeof AdminCommand.safeParse>;
    try {
      parsed = AdminCommand.safeParse(JSON.parse(body));
    } catch {
      return send(response, 400, failure("invalid_request", "The command is not JSON"));
    }
    if (!parsed.success) return send(response, 400, failure("invalid_request", parsed.error.issues[0]?.message ?? "Invalid command"));
    ctx.log.info({ command: parsed.data.command }, "admin command received over the socket");
    return send(response, 200, await runAdminCommand(ctx, parsed.data));
  } catch (error) {
    if (error instanceof AppError) return send(response, error.status, failure(error.code, error.message));
    ctx.log.error({ err: error }, "admin command failed");
    return send(response, 500, failure("internal", "The command failed on the server; its log says why."));
  }
}
