// The CLI's side of the admin socket (server/adminSocket.ts): one command, one answer.
import http from "node:http";
import type { AdminCommand, AdminCommandResult } from "../services/admin/runCommand";

/** The server refused or could not run the command; `code` is the API's error code. */
export class CommandFailedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sendAdminCommand(socketPath: string, command: AdminCommand): Promise<AdminCommandResult> {
  const body = JSON.stringify(command);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath,
        method: "POST",
        path: "/commands",
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            return reject(new CommandFailedError("bad_answer", `Berth answered ${response.statusCode} with something that is not JSON.`));
          }
          if (response.statusCode === 200) return resolve(parsed as AdminCommandResult);
          const error = (parsed as { error?: { code?: string; message?: string } }).error;
          reject(new CommandFailedError(error?.code ?? "failed", error?.message ?? `Berth answered ${response.statusCode}.`));
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
