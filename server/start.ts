// Starts Berth: lock the data directory, open and migrate the database, then listen. One HTTP
// server serves every role; the Host header decides whether a request goes to the edge or to
// Fastify (API and dashboard).
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "./env";
import { lockDataDir } from "./db/lock";
import { tightenDataDir } from "./tightenDataDir";
import { resolveSecret } from "./secrets";
import { openDatabase, type Database } from "./db/client";
import { createMailer } from "./mail/mailer";
import { createAuth } from "./auth/auth";
import { loadLegalDocuments } from "./legal/documents";
import { buildApp } from "./app";
import type { AppContext } from "./context";
import { createEdgeHandler } from "./edge/handler";
import { AnalyticsCollector } from "./edge/analytics/collector";
import { loadGeoIp } from "./edge/analytics/geoip";
import { startClusterEvents } from "./clusterEvents";
import { passKeys } from "./edge/protection";
import { shareKeys } from "./edge/shareTokens";
import { createHostRouter } from "./edge/hosts";
import { DomainRegistry } from "./edge/customDomains";
import { createBerthServer } from "./httpServer";
import { webDistDir } from "./paths";
import { createBlobStore } from "./storage";
import { BerthEvents } from "./events";
import { createSiteUrls } from "./edge/urls";
import { EdgeResolver } from "./edge/resolver";
import { ensureSubdomainPool } from "./services/subdomainPool";
import { startWorker } from "./jobs/worker";
import { BlobCache, MAX_CACHED_FILE_BYTES } from "./edge/blobCache";
import { EdgeMemory } from "./edge/memory/budget";
import { useReadyAnswersBudget } from "./edge/http1/responseHead";
import { useNativeSend } from "./edge/native/kernelSend";
import { VariantCompressor } from "./services/compressVariants";
import { startAdminSocket, type AdminSocket } from "./adminSocket";
import { watchDeploymentFailures } from "./services/notifyDeploymentFailed";

export interface RunningBerth {
  port: number;
  database: Database;
  close(): Promise<void>;
}

export async function startBerth(env: Env, log: FastifyBaseLogger): Promise<RunningBerth> {
  const releaseLock = lockDataDir(env.dataDir);
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
    database = await openDatabase(env.databaseUrl ? { url: env.databaseUrl } : { pgliteDir: path.join(env.dataDir, "db") });
    await database.migrate();
    log.info({ database: database.kind }, "database ready, migrations applied");

    const mailer = createMailer({ smtpUrl: env.smtpUrl, from: env.mailFrom, dataDir: env.dataDir }, log);
    const auth = createAuth({
      db: database.db,
      appUrl: env.appUrl,
      secret,
      mailer,
      onMailError: (error) => log.error({ err: error }, "could not send mail"),
    });
    const blobs = createBlobStore(env, env.dataDir);
    const events = new BerthEvents();
    const ctx: AppContext = {
      env,
      db: database.db,
      auth,
      mailer,
      legal,
      log,
      blobs,
      events,
      urls: createSiteUrls(env),
      domains: new DomainRegistry(database.db, events, (error) => log.error({ err: error }, "could not reload custom domains")),
      shareKeys: shareKeys(secret, env.appUrl),
    };
    await ensureSubdomainPool(ctx.db);
    await ctx.domains.load();
    const compressor = new VariantCompressor(ctx);
    events.on("deployment", ({ deployment }) => {
      // Another node's publish is that node's to compress (its worker would catch up anyway).
      if (deployment.status === "success" && !events.relaying) void compressor.kick();
    });
    // Several nodes on one PostgreSQL server hear each other's events (caches, dashboards).
    const cluster =
      database.kind === "postgres" && env.databaseUrl ? await startClusterEvents({ url: env.databaseUrl, db: ctx.db, events, log }) : undefined;
    watchDeploymentFailures(ctx);

    // Everything the edge remembers, in one budget (edge/memory/budget.ts).
    const memory = new EdgeMemory(env.edgeCacheBytes);
    useReadyAnswersBudget(memory);
    useNativeSend(env.nativeSend);
    const hosts = createHostRouter({ ...env, customDomains: ctx.domains, memory });
    const analytics =
      env.roles.has("edge") && env.analytics
        ? new AnalyticsCollector({
            memory,
            db: ctx.db,
            log,
            sitesDomain: env.sitesDomain,
            trustProxy: env.trustProxy,
            geoIp: env.geoipCsv
              ? await loadGeoIp(env.geoipCsv).catch((error: unknown) => {
                  throw new Error(`BERTH_GEOIP_CSV (${env.geoipCsv}): ${(error as Error).message}`);
                })
              : undefined,
          })
        : undefined;
    const edge = env.roles.has("edge")
      ? createEdgeHandler({
          resolver: new EdgeResolver(ctx.db, events, memory),
          blobs,
          cache: new BlobCache(blobs, memory, MAX_CACHED_FILE_BYTES),
          log,
          db: ctx.db,
          passKeys: passKeys(secret, env.appUrl),
          shareKeys: ctx.shareKeys,
          trustProxy: env.trustProxy,
          analytics,
        })
      : undefined;
    const serveApi = env.roles.has("api") || env.roles.has("web");
    const app = await buildApp(ctx, {
      ...(env.roles.has("web") ? { webDir: webDistDir } : {}),
      serverFactory: (fastifyHandler) =>
        createBerthServer({
          hosts,
          edge,
          log,
          analytics,
          bodyTimeoutMs: env.bodyTimeoutMs,
          maxConnectionsPerAddress: env.maxConnectionsPerAddress,
          fallback: serveApi
            ? fastifyHandler
            : (_req, res) => {
                res.statusCode = 404;
                res.end();
              },
        }),
    });
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
    log.info(`Berth is running at ${env.appUrl} (roles: ${[...env.roles].join(", ")}; sites at *.${env.sitesDomain}:${port})`);

    const db = database;
    return {
      port,
      database: db,
      async close() {
        await adminSocket?.close();
        await worker?.stop();
        await cluster?.close();
        await app.close();
        // After the server has stopped answering: the last second of visits.
        await analytics?.close();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    await database?.close().catch(() => {});
    releaseLock();
    throw error;
  }
}
