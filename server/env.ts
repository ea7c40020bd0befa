// Every setting Berth reads, parsed and checked once at startup. A bad or missing value never
// surfaces at the first request: loadEnv collects every problem and the process exits with the list.
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { canonicalIp } from "./dns";
import { registrableDomainSharedWithSites } from "./registrableDomain";
import { z } from "zod";
import { DEFAULT_CAPS, type AccountCaps } from "../common/limits";
import type { PlanCatalog } from "../common/plans";
import { BUILT_IN_PLANS } from "./plans/builtIn";
import { loadPlansFile } from "./plans/file";

const port = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const httpUrl = z
  .string()
  .url("must be a URL such as http://localhost:8080")
  .refine((v) => /^https?:\/\//.test(v), "must start with http:// or https://")
  .transform((v) => v.replace(/\/+$/, ""));

const hostname = z
  .string()
  .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)*$/i, "must be a host name such as localhost or example-sites.net")
  .transform((v) => v.toLowerCase());

const email = z.string().email("must be an e-mail address");

const wholeNumber = (min: number) => z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(min, `must be ${min} or more`);

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const trueOrFalse = z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1");

/** BERTH_BODY_TIMEOUT_SECONDS's default; also the HTTP server's when it is given none (tests). */
export const DEFAULT_BODY_TIMEOUT_SECONDS = 30;

const S3_DEPENDENT = ["BERTH_S3_ENDPOINT", "BERTH_S3_REGION", "BERTH_S3_FORCE_PATH_STYLE", "BERTH_S3_PREFIX"] as const;

// What each variable means and its default, as operators read them, are written once in
// common/settings.ts (the docs page and the README's table come from there); a test holds this
// schema and that list to the same names and plain defaults.
const Schema = z.object({
  PORT: port.default(8080),
  BERTH_DATA_DIR: z.string().min(1).default("./data"),
  BERTH_APP_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  BERTH_SITES_DOMAIN: hostname.default("localhost"),
  BERTH_ALLOW_SHARED_DOMAIN: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  BERTH_S3_BUCKET: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{1,253}[a-z0-9]$/i, "must be a bucket name: letters, digits, dots and hyphens")
      .optional(),
  ),
  BERTH_S3_ENDPOINT: z.preprocess(blankToUndefined, httpUrl.optional()),
  BERTH_S3_REGION: z.preprocess(blankToUndefined, z.string().default("us-east-1")),
  BERTH_S3_FORCE_PATH_STYLE: z.preprocess(blankToUndefined, trueOrFalse.optional()),
  BERTH_S3_PREFIX: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*\/?$/, "must be a key prefix such as berth/ (no leading slash or empty segments)")
      .refine((v) => !v.split("/").includes(".."), "must not contain ..")
      .transform((v) => (v.endsWith("/") ? v : `${v}/`))
      .optional(),
  ),
  AWS_ACCESS_KEY_ID: z.preprocess(blankToUndefined, z.string().optional()),
  AWS_SECRET_ACCESS_KEY: z.preprocess(blankToUndefined, z.string().optional()),
  AWS_SESSION_TOKEN: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
  ),
  BERTH_MAIL_FROM: z.preprocess(blankToUndefined, z.string().min(3).optional()),
  BERTH_SECRET: z.preprocess(blankToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  BERTH_CONTACT_EMAIL: z.preprocess(blankToUndefined, email.optional()),
  BERTH_ADMIN_EMAILS: z.preprocess(blankToUndefined, z.string().optional()),
  // Kept as written (no trailing-slash trim): the dashboard replaces {email} in it.
  BERTH_UPGRADE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), "must be a URL such as https://billing.example.com/berth")
      .optional(),
  ),
  BERTH_CONTACT_ADDRESS: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  BERTH_CONTACT_PHONE: z.preprocess(blankToUndefined, z.string().max(40).optional()),
  BERTH_TERMS_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_PRIVACY_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_PLANS_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_TRUST_PROXY: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  BERTH_ROLES: z.string().default("api,web,edge,worker"),
  BERTH_DNS_SERVERS: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_PUBLIC_IPS: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_DB_BUFFERS_MB: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").default(16),
  BERTH_EDGE_CACHE_MB: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(8, "must be at least 8: the edge keeps its hosts and paths in it too, not only files")
    .default(256),
  // No default here: it is the machine's core count, applied below, so the settings' docs can say so.
  BERTH_EDGE_WORKERS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1 (1 serves sites from the main thread)")
      .max(256, "must be at most 256")
      .optional(),
  ),
  BERTH_ANALYTICS: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  BERTH_NATIVE_SEND: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  BERTH_GEOIP_CSV: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_BACKUP_DAILY: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  BERTH_ORPHAN_GRACE_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .default(86_400),
  BERTH_MAX_SITES_PER_ACCOUNT: wholeNumber(1).default(DEFAULT_CAPS.sitesPerAccount),
  BERTH_MAX_DOMAINS_PER_ACCOUNT: wholeNumber(1).default(DEFAULT_CAPS.customDomainsPerAccount),
  BERTH_MAX_SHARE_LINKS_PER_SITE: wholeNumber(1).default(DEFAULT_CAPS.shareLinksPerSite),
  BERTH_MAX_API_TOKENS_PER_ACCOUNT: wholeNumber(1).default(DEFAULT_CAPS.apiTokensPerAccount),
  BERTH_MAX_WEBHOOKS_PER_ACCOUNT: wholeNumber(1).default(DEFAULT_CAPS.webhooksPerAccount),
  BERTH_WEBHOOK_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  BERTH_BODY_TIMEOUT_SECONDS: wholeNumber(1).default(DEFAULT_BODY_TIMEOUT_SECONDS),
  BERTH_MAX_CONNECTIONS_PER_IP: wholeNumber(0).default(256),
  BERTH_METRICS_TOKEN: z.preprocess(
    blankToUndefined,
    z.string().min(16, "must be at least 16 characters: whoever guesses it reads the metrics").optional(),
  ),
  BERTH_METRICS_LISTEN: z.preprocess(blankToUndefined, z.string().optional()),
  BERTH_SHUTDOWN_DRAIN_SECONDS: wholeNumber(0).default(0),
  BERTH_SHUTDOWN_TIMEOUT_SECONDS: wholeNumber(1).default(30),
  BERTH_LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
});

/** Each variable loadEnv parses, by name, with its parser (scripts/docs-settings.test.ts). */
export const ENV_VARIABLES = Schema.shape;

export const ROLES = ["api", "web", "edge", "worker"] as const;
export type Role = (typeof ROLES)[number];

/** Where blobs go when they go to a bucket; see server/storage/s3.ts. */
export interface S3Settings {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** Empty, or ending in "/". */
  prefix: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  sessionToken: string | undefined;
}

export interface Env {
  port: number;
  dataDir: string;
  appUrl: string;
  sitesDomain: string;
  databaseUrl: string | undefined;
  /** Set when BERTH_S3_BUCKET is: blobs live in that bucket instead of the data directory. */
  s3: S3Settings | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  secret: string | undefined;
  contactEmail: string | undefined;
  /** Lower-cased; admins without needing a promotion. */
  adminEmails: ReadonlySet<string>;
  /** The operator's own billing page: 'Upgrade' links there instead of asking an admin. */
  upgradeUrl: string | undefined;
  contactAddress: string | undefined;
  contactPhone: string | undefined;
  termsFile: string | undefined;
  privacyFile: string | undefined;
  trustProxy: boolean;
  roles: ReadonlySet<Role>;
  logLevel: string;
  /** After SIGTERM, how long the port stays open while /api/health answers draining (BERTH_SHUTDOWN_DRAIN_SECONDS). */
  shutdownDrainMs: number;
  /** How long requests in flight may take once the port closed, before they are cut off (BERTH_SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutMs: number;
  /** The embedded database's shared_buffers, in MB (BERTH_DB_BUFFERS_MB). */
  dbBuffersMb: number;
  edgeCacheBytes: number;
  /** Threads that serve site hosts (BERTH_EDGE_WORKERS); 1 serves them from the main thread. */
  edgeWorkers: number;
  /** Whether the edge records requests for analytics (BERTH_ANALYTICS). */
  analytics: boolean;
  /** Whether the edge sends big cached bodies with the native addon when it is built (BERTH_NATIVE_SEND). */
  nativeSend: boolean;
  /** Path of the GeoIP country CSV (BERTH_GEOIP_CSV), if any. */
  geoipCsv: string | undefined;
  /** Whether the worker writes a daily backup into $BERTH_DATA_DIR/backups (BERTH_BACKUP_DAILY, on unless `false`). */
  backupDaily: boolean;
  /** How old an unreferenced blob or a temporary file must be before the worker deletes it (BERTH_ORPHAN_GRACE_SECONDS). */
  orphanGraceMs: number;
  /** Servers for custom-domain DNS checks, as node:dns setServers takes them; undefined: the system's. */
  dnsServers: string[] | undefined;
  /** Canonical addresses apex custom domains point at; empty: they use ALIAS/ANAME to the site's host. */
  publicIps: string[];
  /** How many sites, custom domains, share links, API tokens and webhooks an account may hold (BERTH_MAX_*). */
  caps: AccountCaps;
  /**
   * The plans this server offers: BERTH_PLANS_FILE's, else the built-in Free and Pro. compose.ts
   * hands them to AppContext.plans, which every rule reads.
   */
  plans: PlanCatalog;
  /** Whether webhooks may go to private, loopback and other non-public addresses (BERTH_WEBHOOK_ALLOW_PRIVATE). */
  webhookAllowPrivate: boolean;
  /** How long a request body may make no progress (BERTH_BODY_TIMEOUT_SECONDS). */
  bodyTimeoutMs: number;
  /** Open connections per client address; 0 for none (BERTH_MAX_CONNECTIONS_PER_IP, off behind a trusted proxy). */
  maxConnectionsPerAddress: number;
  /** Where Prometheus metrics are served; both unset: nowhere (server/metrics/). */
  metrics: MetricsSettings;
}

export interface MetricsSettings {
  /** BERTH_METRICS_TOKEN: /metrics on the main port answers a request that bears it. */
  token: string | undefined;
  /** BERTH_METRICS_LISTEN: a listener of its own for /metrics, without the token on a loopback address. */
  listen: ListenAddress | undefined;
}

export interface ListenAddress {
  /** As node's listen() takes it: an address without brackets, or `localhost`. */
  host: string;
  port: number;
  loopback: boolean;
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Berth cannot start; fix these settings:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

function parseRoles(raw: string, problems: string[]): Set<Role> {
  const roles = new Set<Role>();
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if ((ROLES as readonly string[]).includes(part)) roles.add(part as Role);
    else problems.push(`roles: unknown role "${part}" (choose from ${ROLES.join(", ")})`);
  }
  if (roles.size === 0 && problems.length === 0) problems.push("roles: at least one role is needed");
  return roles;
}

function parseAdminEmails(raw: string, problems: string[]): Set<string> {
  const emails = new Set<string>();
  for (const part of raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (z.email().safeParse(part).success) emails.add(part);
    else problems.push(`BERTH_ADMIN_EMAILS: "${part}" is not an e-mail address`);
  }
  return emails;
}

/** `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`, each checked, in node:dns setServers form. */
function parseDnsServers(raw: string | undefined, problems: string[]): string[] | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const servers: string[] = [];
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(part) ?? /^([^:]+):(\d{1,5})$/.exec(part) ?? [part, part, undefined];
    const [, address, portText] = match;
    const portNumber = portText === undefined ? 53 : Number(portText);
    if (!isIP(address ?? "") || portNumber < 1 || portNumber > 65535) {
      problems.push(`BERTH_DNS_SERVERS: "${part}" is not an address such as 1.1.1.1, 1.1.1.1:53 or [2606:4700::1111]:53`);
    } else servers.push(part);
  }
  return servers.length > 0 ? servers : undefined;
}

/** Addresses in a canonical form, so a DNS answer compares equal however either was written. */
function parsePublicIps(raw: string | undefined, problems: string[]): string[] {
  const addresses: string[] = [];
  for (const part of (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const canonical = canonicalIp(part);
    if (canonical === undefined) problems.push(`BERTH_PUBLIC_IPS: "${part}" is not an IPv4 or IPv6 address`);
    else if (!addresses.includes(canonical)) addresses.push(canonical);
  }
  return addresses;
}

/** `127.0.0.1:9464`, `[::1]:9464` or `localhost:9464`. */
function parseListen(raw: string | undefined, hasToken: boolean, problems: string[]): ListenAddress | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const text = raw.trim();
  const match = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([^:[\]]+):(\d{1,5})$/.exec(text);
  const host = match?.[1]?.toLowerCase();
  const portNumber = Number(match?.[2]);
  if (host === undefined || !(host === "localhost" || isIP(host)) || !(portNumber >= 1 && portNumber <= 65535)) {
    problems.push(`BERTH_METRICS_LISTEN: "${text}" is not an address and port such as 127.0.0.1:9464 or [::1]:9464`);
    return undefined;
  }
  const loopback = isLoopback(host);
  if (!loopback && !hasToken) {
    // Request rates, queue lengths and memory tell an attacker when and how to hurt the server.
    problems.push(
      `BERTH_METRICS_LISTEN: ${text} is not a loopback address, so anyone who can reach it would read Berth's metrics ` +
        `(traffic, queues, memory) without a password. Listen on 127.0.0.1 or [::1] and let Prometheus scrape it there, ` +
        `or set BERTH_METRICS_TOKEN too: the listener then asks for it as a bearer token`,
    );
  }
  return { host, port: portNumber, loopback };
}

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x.x.x) and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  const v4 = host.startsWith("::ffff:") && isIP(host.slice(7)) === 4 ? host.slice(7) : host;
  if (isIP(v4) === 4) return v4.split(".")[0] === "127";
  return canonicalIp(host) === "::1";
}

/** BERTH_PLANS_FILE's plans, each of the file's problems one line of the list; unset: the built-in ones. */
function parsePlans(raw: string | undefined, problems: string[]): PlanCatalog {
  if (raw === undefined || raw.trim() === "") return BUILT_IN_PLANS;
  const loaded = loadPlansFile(path.resolve(raw));
  for (const problem of loaded.problems) problems.push(`BERTH_PLANS_FILE: ${problem}`);
  return loaded.catalog ?? BUILT_IN_PLANS;
}

function appUrlOf(v: { PORT: number; BERTH_APP_URL?: string | undefined }): string {
  return v.BERTH_APP_URL ?? `http://localhost:${v.PORT}`;
}

/** The dashboard and the sites on one registrable domain: a hosted page could set the dashboard's cookies. */
function checkSharedDomain(appUrl: string, sitesDomain: string, allowed: boolean, problems: string[]): void {
  if (allowed) return;
  const appHost = new URL(appUrl).hostname;
  const shared = registrableDomainSharedWithSites(appHost, sitesDomain);
  if (shared === undefined) return;
  problems.push(
    `BERTH_APP_URL, BERTH_SITES_DOMAIN: the dashboard (${appHost}) and the sites (*.${sitesDomain}) share the ` +
      `registrable domain ${shared}, so any hosted page could set cookies the browser sends to the dashboard: ` +
      `sign its users out, lock them out with a look-alike session cookie, or flood it until it answers 431. ` +
      `Serve the sites from a registrable domain of their own (the dashboard at berth.example.com, the sites at ` +
      `*.example-sites.net, as GitHub Pages uses github.io beside github.com), or set BERTH_ALLOW_SHARED_DOMAIN=true ` +
      `for development only`,
  );
}

/** S3 settings that would silently do nothing, or credentials that cannot work, are mistakes worth stopping for. */
function checkS3(source: Record<string, string | undefined>, problems: string[]): void {
  const isSet = (key: string) => (source[key] ?? "").trim() !== "";
  if (!isSet("BERTH_S3_BUCKET")) {
    for (const key of S3_DEPENDENT) {
      if (isSet(key)) problems.push(`${key}: has no effect without BERTH_S3_BUCKET`);
    }
    return;
  }
  if (isSet("AWS_ACCESS_KEY_ID") !== isSet("AWS_SECRET_ACCESS_KEY")) {
    problems.push("AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: set both, or neither to use the AWS SDK's default chain");
  }
}

/** Parses settings from `source` (process.env by default) and `--roles=` in argv. Throws EnvError listing every problem. */
export function loadEnv(source: Record<string, string | undefined> = process.env, argv: readonly string[] = process.argv.slice(2)): Env {
  const parsed = Schema.safeParse(source);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join(".");
      problems.push(`${key}: ${issue.message} (got ${JSON.stringify(source[key] ?? "")})`);
    }
  }
  const rolesArg = argv.find((a) => a.startsWith("--roles="))?.slice("--roles=".length);
  const roles = parseRoles(rolesArg ?? source.BERTH_ROLES ?? "api,web,edge,worker", problems);
  checkS3(source, problems);
  const adminEmails = parseAdminEmails(source.BERTH_ADMIN_EMAILS ?? "", problems);
  const dnsServers = parseDnsServers(source.BERTH_DNS_SERVERS, problems);
  const publicIps = parsePublicIps(source.BERTH_PUBLIC_IPS, problems);
  const metricsListen = parseListen(source.BERTH_METRICS_LISTEN, (source.BERTH_METRICS_TOKEN ?? "").trim() !== "", problems);
  const plans = parsePlans(source.BERTH_PLANS_FILE, problems);
  // Judged whenever the settings it needs are valid, so it joins the list even when others are not.
  const hosts = Schema.pick({ PORT: true, BERTH_APP_URL: true, BERTH_SITES_DOMAIN: true, BERTH_ALLOW_SHARED_DOMAIN: true }).safeParse(source);
  if (hosts.success) checkSharedDomain(appUrlOf(hosts.data), hosts.data.BERTH_SITES_DOMAIN, hosts.data.BERTH_ALLOW_SHARED_DOMAIN, problems);
  if (!parsed.success || problems.length > 0) throw new EnvError(problems);

  const v = parsed.data;
  const appUrl = appUrlOf(v);
  return {
    port: v.PORT,
    dataDir: path.resolve(v.BERTH_DATA_DIR),
    appUrl,
    sitesDomain: v.BERTH_SITES_DOMAIN,
    databaseUrl: v.DATABASE_URL,
    s3: v.BERTH_S3_BUCKET
      ? {
          bucket: v.BERTH_S3_BUCKET,
          endpoint: v.BERTH_S3_ENDPOINT,
          region: v.BERTH_S3_REGION,
          forcePathStyle: v.BERTH_S3_FORCE_PATH_STYLE ?? v.BERTH_S3_ENDPOINT !== undefined,
          prefix: v.BERTH_S3_PREFIX ?? "",
          accessKeyId: v.AWS_ACCESS_KEY_ID,
          secretAccessKey: v.AWS_SECRET_ACCESS_KEY,
          sessionToken: v.AWS_SESSION_TOKEN,
        }
      : undefined,
    smtpUrl: v.BERTH_SMTP_URL,
    mailFrom: v.BERTH_MAIL_FROM ?? `Berth <no-reply@${new URL(appUrl).hostname}>`,
    secret: v.BERTH_SECRET,
    contactEmail: v.BERTH_CONTACT_EMAIL,
    adminEmails,
    upgradeUrl: v.BERTH_UPGRADE_URL,
    contactAddress: v.BERTH_CONTACT_ADDRESS,
    contactPhone: v.BERTH_CONTACT_PHONE,
    termsFile: v.BERTH_TERMS_FILE,
    privacyFile: v.BERTH_PRIVACY_FILE,
    trustProxy: v.BERTH_TRUST_PROXY,
    roles,
    logLevel: v.BERTH_LOG_LEVEL,
    shutdownDrainMs: v.BERTH_SHUTDOWN_DRAIN_SECONDS * 1000,
    shutdownTimeoutMs: v.BERTH_SHUTDOWN_TIMEOUT_SECONDS * 1000,
    dbBuffersMb: v.BERTH_DB_BUFFERS_MB,
    edgeCacheBytes: v.BERTH_EDGE_CACHE_MB * 1024 * 1024,
    edgeWorkers: v.BERTH_EDGE_WORKERS ?? availableParallelism(),
    analytics: v.BERTH_ANALYTICS,
    nativeSend: v.BERTH_NATIVE_SEND,
    geoipCsv: v.BERTH_GEOIP_CSV,
    backupDaily: v.BERTH_BACKUP_DAILY,
    orphanGraceMs: v.BERTH_ORPHAN_GRACE_SECONDS * 1000,
    dnsServers,
    publicIps,
    caps: {
      sitesPerAccount: v.BERTH_MAX_SITES_PER_ACCOUNT,
      customDomainsPerAccount: v.BERTH_MAX_DOMAINS_PER_ACCOUNT,
      shareLinksPerSite: v.BERTH_MAX_SHARE_LINKS_PER_SITE,
      apiTokensPerAccount: v.BERTH_MAX_API_TOKENS_PER_ACCOUNT,
      webhooksPerAccount: v.BERTH_MAX_WEBHOOKS_PER_ACCOUNT,
    },
    plans,
    webhookAllowPrivate: v.BERTH_WEBHOOK_ALLOW_PRIVATE,
    bodyTimeoutMs: v.BERTH_BODY_TIMEOUT_SECONDS * 1000,
    maxConnectionsPerAddress: v.BERTH_TRUST_PROXY ? 0 : v.BERTH_MAX_CONNECTIONS_PER_IP,
    metrics: { token: v.BERTH_METRICS_TOKEN, listen: metricsListen },
  };
}
