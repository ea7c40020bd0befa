// Runs a command with no server running: the CLI takes the data directory's lock itself and opens
// the database the way the server does (DATABASE_URL, or PGlite in the data directory), with
// migrations, then lets go of both.
import { existsSync } from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { createAuth } from "../auth/auth";
import { openDatabase, type Database } from "../db/client";
import { lockDataDir } from "../db/lock";
import type { Env } from "../env";
import { BerthEvents } from "../events";
import { createMailer } from "../mail/mailer";
import { resolveSecret } from "../secrets";
import type { CommandContext } from "../services/admin/runCommand";
import { createBlobStore } from "../storage";

/** Nothing to run a command against: exit code 1 with this message. */
export class NoDatabaseError extends Error {}

/**
 * Holds the lock for the duration of `run`. Throws DataDirLockedError when a Berth process holds
 * it: the caller then sends the command to that process instead.
 */
export async function withLocalContext<T>(env: Env, run: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const pgliteDir = path.join(env.dataDir, "db");
  // A mistyped BERTH_DATA_DIR must not quietly create an empty Berth somewhere else.
  if (!env.databaseUrl && !existsSync(env.dataDir)) {
    throw new NoDatabaseError(`The data directory ${env.dataDir} does not exist. Set BERTH_DATA_DIR (and DATABASE_URL) as for the server.`);
  }
  const releaseLock = lockDataDir(env.dataDir);
  let database: Database | undefined;
  try {
    if (!env.databaseUrl && !existsSync(pgliteDir)) {
      throw new NoDatabaseError(
        `There is no Berth database in ${pgliteDir}: start Berth once, or set BERTH_DATA_DIR and DATABASE_URL as for the server.`,
      );
    }
    database = await openDatabase(env.databaseUrl ? { url: env.databaseUrl } : { pgliteDir, buffersMb: env.dbBuffersMb });
    await database.migrate();
    // Warnings and errors (a mail that could not be sent) go to stderr; results go to stdout.
    const log = pino({ level: "warn" }, pino.destination(2));
    const mailer = createMailer({ smtpUrl: env.smtpUrl, from: env.mailFrom, dataDir: env.dataDir }, log);
    const auth = createAuth({
      db: database.db,
      appUrl: env.appUrl,
      secret: resolveSecret(env.secret, env.dataDir),
      mailer,
      defaultPlan: env.plans.defaultPlan,
      onMailError: (error) => log.error({ err: error }, "could not send mail"),
    });
    return await run({ env, plans: env.plans, db: database.db, auth, log, blobs: createBlobStore(env, env.dataDir), events: new BerthEvents() });
  } finally {
    await database?.close().catch(() => {});
    releaseLock();
  }
}
