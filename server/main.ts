// Entry point: `node dist/server/main.js [--roles=api,web,edge,worker]`.
import { EnvError, loadEnv, type Env } from "./env";
import { DataDirLockedError } from "./db/lock";
import { LegalFileError } from "./legal/documents";
import { createLogger } from "./log";
import { restrictUmask } from "./privateFiles";
import { startBerth } from "./start";

async function main(): Promise<void> {
  // Before anything is written: whatever Berth or a library creates is this user's alone.
  restrictUmask();
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(env.logLevel);
  let berth;
  try {
    berth = await startBerth(env, log);
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof LegalFileError) {
      console.error(`Berth cannot start: ${error.message}`);
      process.exit(1);
    }
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      console.error(`Berth cannot start: port ${env.port} is already in use. Set PORT to a free port.`);
      process.exit(1);
    }
    throw error;
  }
  const running = berth;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    // An upload that never finishes must not keep the process alive forever.
    setTimeout(() => {
      log.warn("shutdown took longer than 10 s; exiting anyway");
      process.exit(1);
    }, 10_000).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("Berth failed to start:", error);
  process.exit(1);
});
