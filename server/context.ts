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

/** What every route and service may use. Built by compose.ts, once per process and once per test server. */
export interface AppContext {
  env: Env;
  db: Db;
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
}
