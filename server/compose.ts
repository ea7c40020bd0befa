// The composition root: the one place that builds what routes and services use (AppContext) and
// the edge over it, so a new dependency is wired once. start.ts calls it for the process and
// test/support.ts for every test server; each keeps only what truly differs (where the secret
// comes from, logging, roles, ports, the worker). The dashboard side never imports the edge (a
// lint rule holds it): only this module and the process's entry points do.
import type http from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "./env";
import { databaseActivity, type Db } from "./db/client";
import { ForegroundRequests } from "./http/foregroundRequests";
import type { AppContext } from "./context";
import type { LegalDocuments } from "./legal/documents";
import { createMailer } from "./mail/mailer";
import { createAuth } from "./auth/auth";
import { createBlobStore } from "./storage";
import { BerthEvents } from "./events";
import { createSiteUrls } from "./sites/urls";
import { DomainRegistry } from "./sites/domainRegistry";
import { shareKeys } from "./sites/shareTokens";
import { webhookSecretKey } from "./webhooks/secretBox";
import { VariantCompressor } from "./services/compressVariants";
import { watchNotices, type NoticeWatch } from "./services/notifications/watchNotices";
import { createBerthServer, type ServerOptions } from "./httpServer";
import type { EdgeHandler } from "./edge/handler";
import type { EdgeResolver } from "./edge/resolver";
import { createHostRouter, type HostRouter } from "./edge/hosts";
import { EdgeMemory } from "./edge/memory/budget";
import { useReadyAnswersBudget } from "./edge/http1/responseHead";
import { syncFilesystem, useNativeSend } from "./edge/native/kernelSend";
import type { AnalyticsCollector } from "./edge/analytics/collector";
import { assembleEdge } from "./edge/assemble";
import { startEdgeWorkers, threadBudget, type EdgeWorkerPool } from "./edge/workers/pool";
import { shareSealedBodies } from "./edge/native/sealedBodies";
import { createMetrics } from "./metrics/metrics";
import { Lifecycle } from "./lifecycle";

export interface ComposeOptions {
  env: Env;
  db: Db;
  /** The server secret; sessions', pass cookies', share links' and webhook secrets' keys are derived from it. */
  secret: string;
  log: FastifyBaseLogger;
  /** Read by the caller before the database opens, so a missing file stops start-up first. */
  legal: LegalDocuments;
  /** Whether to build the edge: a process with the edge role, and every test server. */
  edge: boolean;
  /** Whether the edge records visits for analytics (a process: BERTH_ANALYTICS; tests ask for it). */
  analytics: boolean;
  /** Whether a publish starts compressing in the background; tests run the compressor themselves. */
  compressOnPublish: boolean;
  /**
   * Threads serving site hosts (a process: BERTH_EDGE_WORKERS; tests: 1 unless they ask). 1, or
   * absent: the main thread serves them.
   */
  edgeWorkers?: number;
  /** Start the edge workers at the first site connection (a process), not at once (tests). */
  edgeWorkersOnDemand?: boolean;
}

export interface ComposedServer {
  ctx: AppContext;
  /** Makes the compressed forms of published files. */
  compressor: VariantCompressor;
  /** The notices and mails that follow events (services/notifications/watchNotices.ts). */
  notices: NoticeWatch;
  /** Everything the edge remembers, in one budget (BERTH_EDGE_CACHE_MB; edge/memory/budget.ts). */
  memory: EdgeMemory;
  /** Host header → site label: sites-domain hosts and active custom domains. */
  hosts: HostRouter;
  /** The edge and the resolver it serves from; absent when not asked for. */
  edge: { handler: EdgeHandler; resolver: EdgeResolver } | undefined;
  /** The visits the edge records, written every second; absent when off. Closed after the server. */
  analytics: AnalyticsCollector | undefined;
  /**
   * The edge workers, when they run (edge/workers/pool.ts). Closed with the server, before the
   * database: their last visits are written through this thread.
   */
  edgeWorkers: EdgeWorkerPool | undefined;
  /** Berth's one HTTP server over these; requests not for a site host go to `fallback`. */
  createServer: (fallback: http.RequestListener, limits?: Pick<ServerOptions, "bodyTimeoutMs" | "maxConnectionsPerAddress">) => http.Server;
}

export async function composeServer(options: ComposeOptions): Promise<ComposedServer> {
  const { env, db, secret, log } = options;
  const mailer = createMailer({ smtpUrl: env.smtpUrl, from: env.mailFrom, dataDir: env.dataDir }, log);
  const auth = createAuth({
    db,
    appUrl: env.appUrl,
    secret,
    mailer,
    defaultPlan: env.plans.defaultPlan,
    onMailError: (error) => log.error({ err: error }, "could not send mail"),
  });
  // The native addon's syncfs, where it is built: a deploy's batches of small files are made
  // durable with two filesystem syncs each instead of one per file (storage/README.md).
  const blobs = createBlobStore(env, env.dataDir, { syncFilesystem });
  const events = new BerthEvents();
  const metrics = await createMetrics({ db, events, log, exposed: env.metrics.token !== undefined || env.metrics.listen !== undefined });
  const ctx: AppContext = {
    env,
    db,
    plans: env.plans,
    auth,
    mailer,
    legal: options.legal,
    log,
    blobs,
    events,
    urls: createSiteUrls(env),
    domains: new DomainRegistry(db, events, (error) => log.error({ err: error }, "could not reload custom domains")),
    shareKeys: shareKeys(secret, env.appUrl),
    webhookSecretKey: webhookSecretKey(secret),
    metrics,
    lifecycle: new Lifecycle(),
    foreground: new ForegroundRequests(databaseActivity(db)?.kind === "pglite"),
  };
  await ctx.domains.load();

  const compressor = new VariantCompressor(ctx);
  if (options.compressOnPublish) {
    events.on("deployment", ({ deployment, check }) => {
      // Another node's publish is that node's to compress (its worker would catch up anyway); a
      // publish check's result is news about files already compressed.
      if (deployment.status === "success" && !check && !events.relaying) void compressor.kick();
    });
  }
  const notices = watchNotices(ctx);

  const workerCount = options.edge ? (options.edgeWorkers ?? 1) : 1;
  const edgeWorkers =
    workerCount >= 2
      ? await startEdgeWorkers({
          count: workerCount,
          env,
          secret,
          db,
          events,
          log,
          analytics: options.analytics,
          onShareLinkUsedUp: (used) => notices.shareLinkUsedUp(used),
          onDemand: options.edgeWorkersOnDemand ?? false,
        })
      : undefined;
  // What the workers count, added to this thread's at every scrape.
  if (edgeWorkers) metrics.include(() => edgeWorkers.counts());
  // With workers this thread serves only what they give back (other hosts, Ranges, forms): a
  // worker's share of the budget is plenty.
  const memory = new EdgeMemory(edgeWorkers ? threadBudget(env.edgeCacheBytes, workerCount) : env.edgeCacheBytes);
  useReadyAnswersBudget(memory);
  useNativeSend(env.nativeSend);
  if (edgeWorkers) shareSealedBodies(workerCount + 1);
  const hosts = createHostRouter({ ...env, customDomains: ctx.domains, memory });
  let edge: ComposedServer["edge"];
  let analytics: AnalyticsCollector | undefined;
  if (options.edge) {
    const assembled = await assembleEdge({
      env,
      db,
      events,
      blobs,
      memory,
      secret,
      shareKeys: ctx.shareKeys,
      log,
      analytics: options.analytics,
      counts: metrics.counts,
      onShareLinkUsedUp: (used) => notices.shareLinkUsedUp(used),
    });
    edge = { handler: assembled.handler, resolver: assembled.resolver };
    analytics = assembled.analytics;
  }

  return {
    ctx,
    compressor,
    notices,
    memory,
    hosts,
    edge,
    analytics,
    edgeWorkers,
    createServer: (fallback, limits = {}) =>
      createBerthServer({
        hosts,
        edge: edge?.handler,
        log,
        analytics,
        fallback,
        workers: edgeWorkers,
        requests: metrics.counts,
        lifecycle: ctx.lifecycle,
        ...limits,
      }),
  };
}
