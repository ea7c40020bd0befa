// The edge over its dependencies: analytics, resolver, blob cache and handler. Built the same
// way on the main thread (compose.ts) and in each edge worker (workers/thread.ts), so a new
// dependency of the edge is wired once.
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "../env";
import type { Db } from "../db/client";
import type { BerthEvents } from "../events";
import type { BlobStore } from "../storage/blobStore";
import type { ShareKeys } from "../sites/shareTokens";
import { createEdgeHandler, type EdgeHandler } from "./handler";
import { EdgeResolver } from "./resolver";
import { passKeys } from "./protection";
import { BlobCache, MAX_CACHED_FILE_BYTES } from "./blobCache";
import type { EdgeMemory } from "./memory/budget";
import { AnalyticsCollector } from "./analytics/collector";
import { loadGeoIp } from "./analytics/geoip";
import type { ServingCounts } from "../metrics/counts";

export interface EdgeAssembly {
  handler: EdgeHandler;
  resolver: EdgeResolver;
  /** The visits this edge records, written every second; absent when off. Closed after the server. */
  analytics: AnalyticsCollector | undefined;
}

export interface AssembleOptions {
  env: Env;
  db: Db;
  events: BerthEvents;
  blobs: BlobStore;
  memory: EdgeMemory;
  secret: string;
  shareKeys: ShareKeys;
  log: FastifyBaseLogger;
  analytics: boolean;
  /** This thread's counts for the metrics (the blob cache's hits and misses). */
  counts?: ServingCounts | undefined;
  onShareLinkUsedUp: (used: { siteId: string; linkId: string }) => void;
}

export async function assembleEdge(options: AssembleOptions): Promise<EdgeAssembly> {
  const { env, db, memory, log } = options;
  const analytics = options.analytics
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
  const resolver = new EdgeResolver(db, options.events, memory);
  const handler = createEdgeHandler({
    resolver,
    blobs: options.blobs,
    cache: new BlobCache(options.blobs, memory, MAX_CACHED_FILE_BYTES, options.counts),
    log,
    db,
    passKeys: passKeys(options.secret, env.appUrl),
    shareKeys: options.shareKeys,
    trustProxy: env.trustProxy,
    analytics,
    onShareLinkUsedUp: options.onShareLinkUsedUp,
  });
  return { handler, resolver, analytics };
}
