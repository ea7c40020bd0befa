// Starts Berth: lock the data directory, open and migrate the database, then listen. One HTTP
// server serves every role; the Host header decides whether a request goes to the edge or to
// Fastify (API and dashboard). What it serves with is wired in compose.ts, as for the tests.
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "./env";
import { lockDataDir } from "./db/lock";
import { tightenDataDir } from "./tightenDataDir";
import { resolveSecret } from "./secrets";
import { openDatabase, type Database } from "./db/client";
import { loadLegalDocuments } from "./legal/documents";
import { buildApp } from "./app";
import { composeServer } from "./compose";
import { startClusterEvents } from "./clusterEvents";
import { webDistDir } from "./paths";
import { ensureSubdomainPool } from "./services/subdomainPool";
import { startWorker } from "./jobs/worker";
import { startAdminSocket, type AdminSocket } from "./adminSocket";
import { keepMemoryLean } from "./idleMemory";
import { compactHeap } from "./memoryReport";
import { nativeMalloc } from "./edge/native/kernelSend";
import { METRICS_PATH, metricsListener, startMetricsListener, type MetricsServer } from "./metrics/serve";
import { checkStoredPlans } from "./plans/storedPlans";

export interface RunningBerth {
  port: number;
  database: Database;
  /** SIGTERM's first step: /api/health answers 503 draining, every answer closes its connection. */
  drain(): void;
  /**
   * Stops listening, lets the requests in flight finish (BERTH_SHUTDOWN_TIMEOUT_SECONDS, then cuts
   * them off), writes the last visits and closes the database.
   */
  close(): Promise<void>;
}

export async function startBerth(env: Env, log: FastifyBaseLogger): Promise<RunningBerth> {
  const releaseLock = lockDataDir(env.dataDir);
  // Before the database and the first large buffers are allocated.
  const stopTrimming = keepMemoryLean({ native: nativeMalloc });
  let database: Database | undefined;
  try {
    // Under the lock, before anything opens: what an older Berth or a copy made under umask 022
    // left readable by other accounts becomes owner-only.
    const tightened = tightenDataDir(env.dataDir);
    if (tightened.changed > 0) {
      log.warn(
        `Data directory ${env.dataDir}: ${tightened.changed} ${tightened.changed === 1 ? "entry was" : "entries were"} open to other accounts on this machine and ${tightened.changed === 1 ? "is" : "are"} now owner-only (chmod go-rwx)`,
      );
    }
    if (tightened.failed.length > 0) {
      log.warn(
        { failed: tightened.failed.slice(0, 20) },
        `Data directory ${env.dataDir}: ${tightened.failed.length} ${tightened.failed.length === 1 ? "entry" : "entries"} could not be made owner-only; other accounts may still read ${tightened.failed.length === 1 ? "it" : "them"}`,
      );
    }
    const legal = loadLegalDocuments(env);
    const secret = resolveSecret(env.secret, env.dataDir);
    database = await openDatabase(
      env.databaseUrl ? { url: env.databaseUrl } : { pgliteDir: path.join(env.dataDir, "db"), buffersMb: env.dbBuffersMb },
    );
    await database.migrate();
    log.info({ database: database.kind }, "database ready, migrations applied");
    await checkStoredPlans(database.db, env.plans);

    const { ctx, compressor, memory, edge, analytics, edgeWorkers, createServer } = await composeServer({
      env,
      db: database.db,
      secret,
      log,
      legal,
      edge: env.roles.has("edge"),
      analytics: env.roles.has("edge") && env.analytics,
      compressOnPublish: true,
      edgeWorkers: env.edgeWorkers,
      edgeWorkersOnDemand: true,
    });
    await ensureSubdomainPool(ctx.db);
    // Several nodes on one PostgreSQL server hear each other's events (caches, dashboards).
    const cluster =
      database.kind === "postgres" && env.databaseUrl
        ? await startClusterEvents({ url: env.databaseUrl, db: ctx.db, events: ctx.events, log })
        : undefined;

    // Before the main port: a taken metrics port stops start-up with nothing else left open.
    let metricsServer: MetricsServer | undefined;
    // Built by compose.ts whenever BERTH_METRICS_TOKEN or BERTH_METRICS_LISTEN is set.
    const { exposition } = ctx.metrics;
    if (env.metrics.listen && exposition) {
      const { host, port: metricsPort } = env.metrics.listen;
      metricsServer = await startMetricsListener(exposition, env.metrics.listen, env.metrics.token, log).catch((error: unknown) => {
        throw new Error(`BERTH_METRICS_LISTEN (${host}:${metricsPort}): ${(error as Error).message}`);
      });
      log.info(`Metrics at http://${host.includes(":") ? `[${host}]` : host}:${metricsServer.port}${METRICS_PATH}`);
    }
    const serveApi = env.roles.has("api") || env.roles.has("web");
    // Without Fastify (an edge or worker node), /metrics with its token is still this port's.
    const metricsOnly = env.metrics.token !== undefined && exposition ? metricsListener(exposition, env.metrics.token, log) : undefined;
    const app = await buildApp(ctx, {
      ...(env.roles.has("web") ? { webDir: webDistDir } : {}),
      serverFactory: (fastifyHandler) =>
        createServer(
          serveApi
            ? fastifyHandler
            : (req, res) => {
                if (metricsOnly && req.url?.split("?")[0] === METRICS_PATH) return metricsOnly(req, res);
                res.statusCode = 404;
                res.end();
              },
          { bodyTimeoutMs: env.bodyTimeoutMs, maxConnectionsPerAddress: env.maxConnectionsPerAddress },
        ),
    });
    // Start-up (migrations, the first queries, loading every module) leaves garbage and a young
    // generation grown to its cap, which the idle compaction would give back only half a minute
    // later. Before serving, one compaction (tens of milliseconds) frees it, before the edge
    // workers start beside it: two seconds after a start with two of them, 285 MB resident, not 380.
    compactHeap();
    await app.listen({ port: env.port, host: "::" });
    const worker = env.roles.has("worker") ? startWorker(ctx, compressor) : undefined;
    // `npm run berth -- admin …` reaches this process here while it holds the data directory.
    let adminSocket: AdminSocket | undefined;
    if (env.roles.has("api")) {
      adminSocket = await startAdminSocket(ctx, env.dataDir, edge ? { edgeMemory: () => memory.usage() } : {}).catch((error: unknown) => {
        log.warn({ err: error }, `admin commands cannot reach this process: ${(error as Error).message}`);
        return undefined;
      });
    }
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : env.port;
    const threads = edgeWorkers ? `; ${edgeWorkers.count} edge workers` : "";
    log.info(`Berth is running at ${env.appUrl} (roles: ${[...env.roles].join(", ")}; sites at *.${env.sitesDomain}:${port}${threads})`);

    const db = database;
    return {
      port,
      database: db,
      drain() {
        ctx.lifecycle.drain();
      },
      async close() {
        await adminSocket?.close();
        await metricsServer?.close();
        // The compressor first: a worker tick waits for its run, which a stop cuts short.
        await compressor.stop();
        await worker?.stop();
        await cluster?.close();
        // The workers drain their connections while the server drains its own; both before the
        // database closes, since the workers' last visits are written through this thread.
        const served = Promise.all([app.close(), edgeWorkers?.close()]);
        let limit: NodeJS.Timeout | undefined;
        const inTime = await Promise.race([
          served.then(() => true),
          new Promise<false>((resolve) => (limit = setTimeout(resolve, env.shutdownTimeoutMs, false))),
        ]);
        clearTimeout(limit);
        if (!inTime) {
          log.warn(`requests still running ${env.shutdownTimeoutMs / 1000} s after the port closed (BERTH_SHUTDOWN_TIMEOUT_SECONDS); cut off`);
          app.server.closeAllConnections();
          edgeWorkers?.cutOff();
          await served;
        }
        // After the server has stopped answering: the last second of visits.
        await analytics?.close();
        await db.close();
        stopTrimming();
        releaseLock();
      },
    };
  } catch (error) {
    await database?.close().catch(() => {});
    stopTrimming();
    releaseLock();
    throw error;
  }
}
