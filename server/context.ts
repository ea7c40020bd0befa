import type { FastifyBaseLogger } from "fastify";
import type { Auth } from "./auth/auth";
import type { Db } from "./db/client";
import type { Env } from "./env";
import type { Mailer } from "./mail/mailer";
import type { LegalDocuments } from "./legal/documents";
import type { BlobStore } from "./storage/blobStore";
import type { BerthEvents } from "./events";
import type { SiteUrls } from "./sites/urls";
import type { DomainRegistry } from "./sites/domainRegistry";
import type { ShareKeys } from "./sites/shareTokens";
import type { BerthMetrics } from "./metrics/metrics";
import type { PlanCatalog } from "../common/plans";
import type { Lifecycle } from "./lifecycle";
import type { ForegroundRequests } from "./http/foregroundRequests";

/** What every route and service may use. Built by compose.ts, once per process and once per test server. */
export interface AppContext {
  env: Env;
  db: Db;
  /**
   * The plans this server offers (BERTH_PLANS_FILE, or the built-in Free and Pro), loaded once at
   * startup: every limit and feature check, and GET /api/config, read these.
   */
  plans: PlanCatalog;
  auth: Auth;
  mailer: Mailer;
  legal: LegalDocuments;
  log: FastifyBaseLogger;
  blobs: BlobStore;
  events: BerthEvents;
  urls: SiteUrls;
  /** Active custom domains in memory: the host router and /internal/tls/ask read it (sites/domainRegistry.ts). */
  domains: DomainRegistry;
  /** Share links' token and cookie keys, derived from the server secret (sites/shareTokens.ts). */
  shareKeys: ShareKeys;
  /** The key webhook endpoints' signing secrets are encrypted with, derived from the server secret (webhooks/secretBox.ts). */
  webhookSecretKey: Buffer;
  /** What /metrics reports; counting is always on, serving it is not (metrics/). */
  metrics: BerthMetrics;
  /** Draining once SIGTERM arrived: /api/health answers 503 and connections close after their answer. */
  lifecycle: Lifecycle;
  /** Requests that change something, counted so that background work on PGlite waits for them (http/foregroundRequests.ts). */
  foreground: ForegroundRequests;
}
