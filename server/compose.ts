// The composition root: the one place that builds what routes and services use (AppContext) and
// the edge over it, so a new dependency is wired once. start.ts calls it for the process and
// test/support.ts for every test server; each keeps only what truly differs (where the secret
// comes from, logging, roles, ports, the worker). The dashboard side never imports the edge (a
// lint rule holds it): only this module and the process's entry points do.
import type http from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "./env";
import type { Db } from "./db/client";
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
import { watchDeploymentFailures, type DeploymentFailureNotices } from "./services/notifyDeploymentFailed";
import { createBerthServer, type ServerOptions } from "./httpServer";
import { createEdgeHandler, type EdgeHandler } from "./edge/handler";
import { EdgeResolver } from "./edge/resolver";
import { createHostRouter, type HostRouter } from "./edge/hosts";
import { passKeys } from "./edge/protection";
import { BlobCache, MAX_CACHED_FILE_BYTES } from "./edge/blobCache";
import { EdgeMemory } from "./edge/memory/budget";
import { useReadyAnswersBudget } from "./edge/http1/responseHead";
import { useNativeSend } from "./edge/native/kernelSend";
import { AnalyticsCollector } from "./edge/analytics/collector";
import { loadGeoIp } from "./edge/analytics/geoip";

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
}

export interface ComposedServer {
  ctx: AppContext;
  /** Makes the compressed forms of published files. */
  compressor: VariantCompressor;
  /** The deployment-failed e-mails, sent on `deployment` events. */
  notices: DeploymentFailureNotices;
  /** Everything the edge remembers, in one budget (BERTH_EDGE_CACHE_MB; edge/memory/budget.ts). */
  memory: EdgeMemory;
  /** Host header → site label: sites-domain hosts and active custom domains. */
  hosts: HostRouter;
  /** The edge and the resolver it serves from; absent when not asked for. */
  edge: { handler: EdgeHandler; resolver: EdgeResolver } | undefined;
  /** The visits the edge records, written every second; absent when off. Closed after the server. */
  analytics: AnalyticsCollector | undefined;
  /** Berth's one HTTP server over these; requests not for a site host go to `fallback`. */
  createServer: (fallback: http.RequestListener, limits?: Pick<ServerOptions, "bodyTimeoutMs" | "maxConnectionsPerAddress">) => http.Server;
}

export async function composeServer(options: ComposeOptions): Promise<ComposedServer> {
  const { env, db, secret, log } = options;
  const mailer = createMailer({ smtpUrl: env.smtpUrl, from: env.mailFrom, dataDir: env.dataDir }, log);
  const auth = createAuth({ db, appUrl: env.appUrl, secret, mailer, onMailError: (error) => log.error({ err: error }, "could not send mail") });
  const blobs = createBlobStore(env, env.dataDir);
  const events = new BerthEvents();
  const ctx: AppContext = {
    env,
    db,
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
  };
  await ctx.domains.load();

  const compressor = new VariantCompressor(ctx);
  if (options.compressOnPublish) {
    events.on("deployment", ({ deployment }) => {
      // Another node's publish is that node's to compress (its worker would catch up anyway).
      if (deployment.status === "success" && !events.relaying) void compressor.kick();
    });
  }
  const notices = watchDeploymentFailures(ctx);

  const memory = new EdgeMemory(env.edgeCacheBytes);
  useReadyAnswersBudget(memory);
  useNativeSend(env.nativeSend);
  const hosts = createHostRouter({ ...env, customDomains: ctx.domains, memory });
  const analytics =
    options.edge && options.analytics
      ? new AnalyticsCollector({
          memory,
          db,
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
  let edge: ComposedServer["edge"];
  if (options.edge) {
    const resolver = new EdgeResolver(db, events, memory);
    const handler = createEdgeHandler({
      resolver,
      blobs,
      cache: new BlobCache(blobs, memory, MAX_CACHED_FILE_BYTES),
      log,
      db,
      passKeys: passKeys(secret, env.appUrl),
      shareKeys: ctx.shareKeys,
      trustProxy: env.trustProxy,
      analytics,
    });
    edge = { handler, resolver };
  }

  return {
    ctx,
    compressor,
    notices,
    memory,
    hosts,
    edge,
    analytics,
    createServer: (fallback, limits = {}) => createBerthServer({ hosts, edge: edge?.handler, log, analytics, fallback, ...limits }),
  };
}
