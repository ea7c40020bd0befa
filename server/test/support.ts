// The in-process test server: a real database (a copy of the run's migrated PGlite, or a clone
// of the PostgreSQL template), the real auth and mailer writing to a temporary outbox, and
// Fastify's inject() instead of a port. It is wired by the composition root start.ts uses
// (compose.ts), so tests run what production runs.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import { inject } from "vitest";
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from "fastify";
import { openDatabase, type Database } from "../db/client";
import { loadEnv, type Env } from "../env";
import { loadLegalDocuments } from "../legal/documents";
import { buildApp, type BuildAppOptions } from "../app";
import type { AppContext } from "../context";
import { composeServer } from "../compose";
import { Outbox } from "./outbox";
import { EdgeClient } from "./edgeClient";
import type { ServerOptions } from "../httpServer";
import type { EdgeResolver } from "../edge/resolver";
import type { EdgeMemory } from "../edge/memory/budget";
import type { AnalyticsCollector } from "../edge/analytics/collector";
import type { VariantCompressor } from "../services/compressVariants";
import type { NoticeWatch } from "../services/notifications/watchNotices";
import type { EdgeWorkerPool } from "../edge/workers/pool";

export type Driver = "pglite" | "postgres";
/**
 * The databases the suites that run on both run on: both unless BERTH_TEST_DATABASES names some
 * (comma-separated). CI's second pass on an older Node runs them on the embedded one only: the
 * database axis is covered by the first pass, and PGlite is what a fresh install on that Node runs.
 */
export const DRIVERS: readonly Driver[] = testDrivers(process.env.BERTH_TEST_DATABASES);

function testDrivers(setting: string | undefined): Driver[] {
  const all: Driver[] = ["pglite", "postgres"];
  if (!setting?.trim()) return all;
  const named = setting.split(",").map((name) => name.trim());
  const unknown = named.filter((name) => !all.includes(name as Driver));
  if (unknown.length > 0) throw new Error(`BERTH_TEST_DATABASES names ${unknown.join(", ")}; it takes pglite, postgres or both`);
  return all.filter((driver) => named.includes(driver));
}

let counter = 0;
let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

export interface TestDatabase extends Database {
  /** Closes the connection and removes the database. */
  destroy(): Promise<void>;
}

export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  counter += 1;
  if (driver === "pglite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "berth-pglite-"));
    cpSync(inject("pgliteTemplateDir"), dir, { recursive: true });
    const database = await openDatabase({ pgliteDir: dir });
    return {
      ...database,
      async destroy() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `${inject("runId")}_${process.pid}_${counter}`;
  const adminUrl = inject("postgresAdminUrl");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${inject("postgresTemplate")}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    async destroy() {
      await database.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

export const TEST_APP_URL = "http://localhost:8080";

export function testEnv(dataDir: string, overrides: Record<string, string> = {}): Env {
  return loadEnv(
    {
      BERTH_DATA_DIR: dataDir,
      BERTH_APP_URL: TEST_APP_URL,
      BERTH_SECRET: "test-secret-test-secret-test-secret-0123",
      BERTH_LOG_LEVEL: "silent",
      BERTH_CONTACT_EMAIL: "operator@berth.test",
      // A test that starts the worker would otherwise write a backup first; daily.test.ts runs it.
      BERTH_BACKUP_DAILY: "false",
      ...overrides,
    },
    [],
  );
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  outbox: Outbox;
  /** Requests to site hosts, served by the real edge over a socket. */
  edge: EdgeClient;
  /** The edge's budget (BERTH_EDGE_CACHE_MB) and its resolver, for tests of what it remembers. */
  edgeMemory: EdgeMemory;
  edgeResolver: EdgeResolver;
  /** The edge's analytics, when asked for (`analytics: true`); flush() writes the visits now. */
  analytics: AnalyticsCollector | undefined;
  /** Makes compressed forms now (in production a publish kicks it in the background). */
  compressor: VariantCompressor;
  /** The deployment-failed e-mails, as in production; settled() waits for the ones under way. */
  notices: NoticeWatch;
  /** The edge workers, when asked for (`edgeWorkers` ≥ 2) and they started. */
  edgeWorkers: EdgeWorkerPool | undefined;
  /** A client with its own cookie jar, sending the app's Origin on writes like a browser would. */
  client(options?: { ip?: string }): TestClient;
  /**
   * Serves this app and the edge over a real socket on 127.0.0.1, through the HTTP server Berth
   * runs (connection caps, body timeouts, the edge's own HTTP/1.1 layer); closed with the server.
   */
  listen(options?: Pick<ServerOptions, "bodyTimeoutMs" | "maxConnectionsPerAddress">): Promise<ListeningServer>;
  /** Builds a second app on the same database and data dir, as after a restart. */
  restart(): Promise<TestServer>;
  close(): Promise<void>;
}

export interface ListeningServer {
  port: number;
  close(): Promise<void>;
}

export async function getTestServer(
  driver: Driver,
  options: {
    env?: Record<string, string>;
    database?: TestDatabase;
    dataDir?: string;
    app?: BuildAppOptions;
    /** Whether the edge records visits, as with BERTH_ANALYTICS in a process; off by default. */
    analytics?: boolean;
    /** Where the app and the HTTP server log; silent by default. */
    log?: FastifyBaseLogger;
    /** Threads serving site hosts, as BERTH_EDGE_WORKERS in a process; 1 (the main thread) by default. */
    edgeWorkers?: number;
    /** Start them at the first site connection, as a process does. */
    edgeWorkersOnDemand?: boolean;
  } = {},
): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase(driver));
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "berth-data-"));
  const env = testEnv(dataDir, options.env);
  const log = options.log ?? pino({ level: "silent" });
  const composed = await composeServer({
    env,
    db: database.db,
    secret: env.secret!,
    log,
    legal: loadLegalDocuments(env),
    edge: true,
    analytics: options.analytics ?? false,
    compressOnPublish: false,
    edgeWorkers: options.edgeWorkers ?? 1,
    edgeWorkersOnDemand: options.edgeWorkersOnDemand ?? false,
  });
  const { ctx, compressor, notices, memory, analytics, edgeWorkers } = composed;
  const { resolver } = composed.edge!;
  const app = await buildApp(ctx, options.app);
  await app.ready();
  const edge = new EdgeClient((fallback) => composed.createServer(fallback));
  const listening: http.Server[] = [];
  const closeListening = () =>
    Promise.all(
      listening.splice(0).map((s) => {
        s.closeAllConnections();
        return new Promise((resolve) => s.close(resolve));
      }),
    );
  return {
    app,
    ctx,
    database,
    outbox: new Outbox(path.join(dataDir, "outbox")),
    edge,
    edgeMemory: memory,
    edgeResolver: resolver,
    compressor,
    notices,
    analytics,
    edgeWorkers,
    // Each client gets its own address unless told otherwise, so rate limits apply per test client.
    client: (clientOptions) => new TestClient(app, clientOptions?.ip ?? nextAddress()),
    async listen(serverOptions = {}) {
      const http = composed.createServer((req, res) => app.routing(req, res), serverOptions);
      listening.push(http);
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      return {
        port: (http.address() as AddressInfo).port,
        close: async () => {
          const index = listening.indexOf(http);
          if (index !== -1) listening.splice(index, 1);
          http.closeAllConnections();
          await new Promise((resolve) => http.close(resolve));
        },
      };
    },
    async restart() {
      await ctx.domains.settled();
      notices.stop();
      await notices.settled();
      await closeListening();
      await app.close();
      await edge.close();
      await edgeWorkers?.close(true);
      await analytics?.close();
      return getTestServer(driver, { ...options, database, dataDir });
    },
    async close() {
      await ctx.domains.settled();
      notices.stop();
      await notices.settled();
      await closeListening();
      await app.close();
      await edge.close();
      await edgeWorkers?.close(true);
      await analytics?.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip: string,
  ) {}

  async request(
    method: Method,
    url: string,
    options: { json?: unknown; headers?: Record<string, string>; payload?: Buffer } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (method !== "GET" && method !== "HEAD") headers.origin ??= TEST_APP_URL;
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (options.json !== undefined) headers["content-type"] = "application/json";
    const response = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(options.json !== undefined ? { payload: JSON.stringify(options.json) } : {}),
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.value === "";
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request("GET", url, headers ? { headers } : {});
  }

  patch(url: string, json: unknown) {
    return this.request("PATCH", url, { json });
  }

  delete(url: string) {
    return this.request("DELETE", url);
  }

  post(url: string, json?: unknown, headers?: Record<string, string>) {
    return this.request("POST", url, { json: json ?? {}, ...(headers ? { headers } : {}) });
  }
}
