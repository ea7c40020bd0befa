// Entry point: `node dist/server/main.js [--roles=api,web,edge,worker]`.
import { EnvError, loadEnv, type Env } from "./env";
import { DataDirLockedError } from "./db/lock";
import { LegalFileError } from "./legal/documents";
import { UnknownStoredPlansError } from "./plans/storedPlans";
import { createLogger } from "./log";
import { restrictUmask } from "./privateFiles";
import { startBerth } from "./start";
import { sizeThreadPool } from "./threadPool";

/** After the requests in flight: writing the last visits and closing the database. */
const LAST_WRITES_MS = 10_000;

async function main(): Promise<void> {
  sizeThreadPool();
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
  // A signal can come while the database opens and migrates (seconds on a large or slow disk).
  // Left to Node's default it would kill the process halfway; instead Berth finishes starting,
  // so the database is closed cleanly, and stops at once, with no drain: no balancer has been
  // sending it requests yet. A second signal stops it at once. The listeners stay for the whole
  // life of the process and only what they call changes: a signal that arrives while a listener
  // is being swapped for another would otherwise be dropped by Node, and the process run on.
  let stopWhenStarted: string | undefined;
  let onSignal = (signal: string) => {
    if (stopWhenStarted !== undefined) {
      log.warn(`${signal} received again while starting: exiting at once`);
      process.exit(1);
    }
    stopWhenStarted = signal;
    log.info(`${signal} received while starting: shutting down once started`);
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  log.info(`Berth starting (pid ${process.pid})`);
  let berth;
  try {
    berth = await startBerth(env, log);
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof LegalFileError || error instanceof UnknownStoredPlansError) {
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
  const stop = (signal: string, drainMs = env.shutdownDrainMs) => {
    if (stopping) return;
    stopping = true;
    log.info(
      drainMs > 0
        ? `${signal} received: draining for ${drainMs / 1000} s (/api/health answers 503), then shutting down`
        : `${signal} received, shutting down`,
    );
    // Past its limits (drain, requests in flight, then time to write the last visits and close
    // the database), nothing may keep the process alive.
    setTimeout(
      () => {
        log.warn("shutdown did not finish in time; exiting anyway");
        process.exit(1);
      },
      drainMs + env.shutdownTimeoutMs + LAST_WRITES_MS,
    ).unref();
    running.drain();
    setTimeout(() => {
      running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    }, drainMs);
  };
  onSignal = (signal) => stop(signal);
  if (stopWhenStarted !== undefined) stop(stopWhenStarted, 0);
}

main().catch((error: unknown) => {
  console.error("Berth failed to start:", error);
  process.exit(1);
});
