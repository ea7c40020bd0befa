// The checks of `npm run berth -- doctor`, each on the real thing: the settings as start-up parses
// them, the data directory on disk, the database (without migrating it), a probe object through
// the blob store's own interface, a connection to the mail server, and DNS through the resolver
// the custom-domain job uses. A check never changes what Berth keeps: the probe goes again, and
// the database is only read.
import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, statfsSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { formatBytes } from "../../common/format";
import { appliedMigrations } from "../backup/logicalDump";
import { openDatabase, type Database } from "../db/client";
import { DataDirLockedError, lockDataDir } from "../db/lock";
import { listServedDomains } from "../db/repositories/domains";
import { createDnsLookup } from "../dns";
import type { Env } from "../env";
import { loadLegalDocuments } from "../legal/documents";
import { migrationsDir } from "../paths";
import { checkPointer } from "../services/checkDomainDns";
import { createSiteUrls } from "../sites/urls";
import { createBlobStore } from "../storage";

export type CheckStatus = "ok" | "warning" | "problem" | "skipped";

export interface CheckResult {
  /** What was checked, e.g. "SMTP". */
  name: string;
  status: CheckStatus;
  /** What was found, in one line. */
  summary: string;
  /** Lines that say more: each bad setting, each domain that moved. */
  details?: string[];
  /** How to put it right, for a warning or a problem. */
  fix?: string;
}

/** Free space below these is worth a word (warning) or stops uploads and database writes soon (problem). */
export const DISK_WARN_BYTES = 1024 ** 3;
export const DISK_WARN_SHARE = 0.05;
export const DISK_PROBLEM_BYTES = 100 * 1024 ** 2;
/** How long the mail server may take to accept the connection, greet and answer. */
const SMTP_TIMEOUT_MS = 10_000;
/** Domains named in the details of a DNS warning; the rest are counted. */
const MAX_LISTED = 20;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code ?? "";
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A URL with its password replaced, fit to print. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(not a URL)";
  }
}

/** The files start-up reads besides the settings: the legal texts and the GeoIP table. */
export function checkStartupFiles(env: Env): CheckResult | undefined {
  const problems: string[] = [];
  try {
    loadLegalDocuments(env);
  } catch (error) {
    problems.push(errorText(error));
  }
  if (env.geoipCsv) {
    try {
      accessSync(env.geoipCsv, constants.R_OK);
    } catch (error) {
      problems.push(`BERTH_GEOIP_CSV (${env.geoipCsv}): ${codeOf(error) === "ENOENT" ? "no such file" : errorText(error)}`);
    }
  }
  if (problems.length === 0) return undefined;
  return {
    name: "configuration",
    status: "problem",
    summary: "a file named in the settings cannot be read, so Berth would stop at start",
    details: problems,
    fix: "correct the path, or make the file readable by the account Berth runs as",
  };
}

export function describeSetup(env: Env): string {
  const database = env.databaseUrl ? `PostgreSQL at ${withoutPassword(env.databaseUrl)}` : "embedded PGlite";
  const blobs = env.s3 ? `bucket ${env.s3.bucket}${env.s3.endpoint ? ` at ${env.s3.endpoint}` : ""}` : "files in the data directory";
  return `every setting is valid (${database}; blobs: ${blobs}; mail: ${env.smtpUrl ? "SMTP" : "outbox"})`;
}

/** Owner, mode and a real write: Berth keeps the database and private files there, for its account alone. */
export function checkDataDir(dataDir: string, uid = process.getuid?.() ?? -1): CheckResult {
  const name = "data directory";
  let info;
  try {
    info = statSync(dataDir);
  } catch (error) {
    if (codeOf(error) === "ENOENT") {
      return {
        name,
        status: "warning",
        summary: `${dataDir} does not exist yet`,
        fix: "Berth creates it at its first start; if Berth has run before, BERTH_DATA_DIR points at the wrong place",
      };
    }
    return { name, status: "problem", summary: `${dataDir} cannot be read: ${errorText(error)}`, fix: "run the doctor as the account Berth runs as" };
  }
  if (!info.isDirectory()) return { name, status: "problem", summary: `${dataDir} is not a directory`, fix: "point BERTH_DATA_DIR at a directory" };

  const mode = info.mode & 0o777;
  const problems: string[] = [];
  const fixes: string[] = [];
  const account = `${accountName(uid)} (uid ${uid})`;
  if (uid >= 0 && info.uid !== uid) {
    problems.push(`it belongs to uid ${info.uid}, and Berth runs as ${account}`);
    fixes.push(`chown -R ${accountName(uid)} ${dataDir}`);
  }
  if (mode & 0o002) {
    problems.push(`every account on the machine may write in it (mode ${mode.toString(8).padStart(4, "0")})`);
    fixes.push(`chmod go-rwx ${dataDir}`);
  }
  const writeError = probeWrite(dataDir);
  if (writeError) {
    problems.push(`${account} cannot write in it (${writeError})`);
    fixes.push(`give ${accountName(uid)} write permission on it (chmod u+rwx ${dataDir}), or run Berth as its owner`);
  }
  if (problems.length > 0) return { name, status: "problem", summary: `${dataDir}: ${problems.join("; ")}`, fix: fixes.join("; ") };
  if (mode & 0o077) {
    return {
      name,
      status: "warning",
      summary: `${dataDir} is open to other accounts (mode ${mode.toString(8).padStart(4, "0")})`,
      fix: `Berth takes these permissions off everything in it at start; or now: chmod -R go-rwx ${dataDir}`,
    };
  }
  return { name, status: "ok", summary: `${dataDir}: owned by ${account}, private, writable` };
}

function accountName(uid: number): string {
  try {
    return uid === process.getuid?.() ? userInfo().username : String(uid);
  } catch {
    return String(uid);
  }
}

/** Creates and removes a file: the account's permissions, ACLs and a read-only mount all count. */
function probeWrite(dir: string): string | undefined {
  const probe = path.join(dir, `.doctor-${randomBytes(6).toString("hex")}`);
  try {
    writeFileSync(probe, "", { flag: "wx", mode: 0o600 });
    unlinkSync(probe);
    return undefined;
  } catch (error) {
    return codeOf(error) || errorText(error);
  }
}

/** Free space where the data directory is (or would be): the database and local blobs grow there. */
export function checkDiskSpace(dataDir: string): CheckResult {
  const name = "disk space";
  let where = dataDir;
  while (!existsSync(where) && path.dirname(where) !== where) where = path.dirname(where);
  let stats;
  try {
    stats = statfsSync(where);
  } catch (error) {
    return { name, status: "warning", summary: `could not read the free space of ${where}: ${errorText(error)}` };
  }
  const free = stats.bavail * stats.bsize;
  const total = stats.blocks * stats.bsize;
  const share = total > 0 ? free / total : 1;
  const summary = `${formatBytes(free)} free of ${formatBytes(total)} (${Math.round(share * 100)} %) where ${where} is`;
  if (free < DISK_PROBLEM_BYTES) {
    return {
      name,
      status: "problem",
      summary: `${summary}, under ${formatBytes(DISK_PROBLEM_BYTES)}`,
      fix: "uploads and the database's writes will fail: free space or move the data directory to a larger disk",
    };
  }
  if (free < DISK_WARN_BYTES || share < DISK_WARN_SHARE) {
    return {
      name,
      status: "warning",
      summary: `${summary}, under ${free < DISK_WARN_BYTES ? formatBytes(DISK_WARN_BYTES) : `${DISK_WARN_SHARE * 100} %`}`,
      fix: "free space, or move the data directory (or the blobs, with BERTH_S3_BUCKET) to a larger disk",
    };
  }
  return { name, status: "ok", summary };
}

/**
 * The database: it answers, and its migrations are this Berth's (read, never applied). While it is
 * open, `alsoWithDatabase` runs the checks that need it. PGlite allows one process at a time, so
 * with Berth running on it the checks are skipped and say so.
 */
export async function checkDatabase(env: Env, alsoWithDatabase: (database: Database) => Promise<CheckResult>): Promise<CheckResult[]> {
  const name = "database";
  const needsIt = (why: string): CheckResult => ({ name: "custom-domain DNS", status: "skipped", summary: `needs the database, which ${why}` });
  if (env.databaseUrl) {
    const where = withoutPassword(env.databaseUrl);
    let database: Database | undefined;
    try {
      database = await openDatabase({ url: env.databaseUrl });
      const migrations = await migrationState(database);
      return [{ ...migrations, summary: `PostgreSQL at ${where}: ${migrations.summary}` }, await alsoWithDatabase(database)];
    } catch (error) {
      return [
        {
          name,
          status: "problem",
          summary: `PostgreSQL at ${where} did not answer: ${errorText(error) || codeOf(error)}`,
          fix: "check DATABASE_URL (host, port, user, password, database name) and that the server accepts connections from this machine",
        },
        needsIt("did not answer"),
      ];
    } finally {
      await database?.close().catch(() => {});
    }
  }

  const pgliteDir = path.join(env.dataDir, "db");
  if (!existsSync(pgliteDir)) {
    return [
      {
        name,
        status: "warning",
        summary: `no database in ${pgliteDir} yet`,
        fix: "Berth creates it at its first start; if it has run before, check BERTH_DATA_DIR",
      },
      needsIt("does not exist yet"),
    ];
  }
  let release: (() => void) | undefined;
  let database: Database | undefined;
  try {
    release = lockDataDir(env.dataDir);
    database = await openDatabase({ pgliteDir });
    const migrations = await migrationState(database);
    return [{ ...migrations, summary: `PGlite in ${pgliteDir}: ${migrations.summary}` }, await alsoWithDatabase(database)];
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      const why = `Berth (pid ${error.pid}) has open: PGlite takes one process at a time`;
      return [
        {
          name,
          status: "skipped",
          summary: `Berth (pid ${error.pid}) is running on ${pgliteDir}, which PGlite lets one process open at a time; it applied the migrations when it started`,
          fix: "stop Berth to check the database itself",
        },
        needsIt(why),
      ];
    }
    return [
      {
        name,
        status: "problem",
        summary: `PGlite in ${pgliteDir} could not be opened: ${errorText(error)}`,
        fix: "run the doctor as the account Berth runs as; if the files are damaged, restore the latest backup (npm run berth -- restore)",
      },
      needsIt("could not be opened"),
    ];
  } finally {
    await database?.close().catch(() => {});
    release?.();
  }
}

async function migrationState(database: Database): Promise<CheckResult> {
  const name = "database";
  const local = readMigrationFiles({ migrationsFolder: migrationsDir });
  const applied = await appliedMigrations(database.db);
  const differs = applied.findIndex((migration, i) => local[i]?.hash !== migration.hash);
  if (applied.length > local.length || differs !== -1) {
    return {
      name,
      status: "problem",
      summary: `its migrations are not this Berth's (${applied.length} applied, ${local.length} known${differs !== -1 ? `; number ${differs + 1} differs` : ""})`,
      fix: "a newer or another Berth used this database: run that version, or point DATABASE_URL / BERTH_DATA_DIR at this Berth's own database",
    };
  }
  if (applied.length < local.length) {
    return {
      name,
      status: "warning",
      summary: `${plural(local.length - applied.length, "migration")} not applied yet (${applied.length} of ${local.length})`,
      fix: "Berth applies them when it starts (or run npm run db:migrate)",
    };
  }
  return { name, status: "ok", summary: `answers, all ${local.length} migrations applied` };
}

/** A probe object written, read back and deleted through the blob store Berth uses. */
export async function checkBlobStore(env: Env): Promise<CheckResult> {
  const name = "blob store";
  const where = env.s3
    ? `bucket ${env.s3.bucket}${env.s3.prefix ? ` (prefix ${env.s3.prefix})` : ""}${env.s3.endpoint ? ` at ${env.s3.endpoint}` : ""}`
    : path.join(env.dataDir, "blobs");
  // The files store would create the data directory; its own check already says it is missing.
  if (!env.s3 && !existsSync(env.dataDir)) return { name, status: "skipped", summary: `${where}: the data directory does not exist yet` };
  const store = createBlobStore(env, env.dataDir);
  const probe = Buffer.concat([Buffer.from("berth doctor probe "), randomBytes(32)]);
  let step = "write";
  try {
    const put = await store.put(Readable.from([probe]), { maxBytes: probe.length });
    step = "read";
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get(put.sha256)) chunks.push(chunk as Buffer);
    if (!Buffer.concat(chunks).equals(probe)) {
      await store.delete(put.sha256).catch(() => {});
      return { name, status: "problem", summary: `${where}: the probe object came back different`, fix: "check the storage for corruption" };
    }
    step = "delete";
    await store.delete(put.sha256);
    if (await store.stat(put.sha256)) return { name, status: "problem", summary: `${where}: the probe object is still there after its deletion` };
    return { name, status: "ok", summary: `${where}: a probe object was written, read back and deleted` };
  } catch (error) {
    return { name, status: "problem", summary: `${where}: could not ${step} a probe object: ${storageError(error)}`, fix: storageFix(env, error) };
  }
}

function storageError(error: unknown): string {
  const code = (error as { name?: string; Code?: string }).Code ?? (error as { name?: string }).name ?? codeOf(error);
  const message = errorText(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function storageFix(env: Env, error: unknown): string {
  if (!env.s3) return `make ${path.join(env.dataDir, "blobs")} writable by the account Berth runs as`;
  const code = `${(error as { name?: string }).name ?? ""} ${(error as { Code?: string }).Code ?? ""} ${codeOf(error)}`;
  if (/NoSuchBucket/.test(code)) return `create the bucket ${env.s3.bucket}, or correct BERTH_S3_BUCKET (and BERTH_S3_REGION)`;
  if (/AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|Forbidden|CredentialsProviderError/.test(code)) {
    return "check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: they need to put, get, list and delete objects in the bucket";
  }
  if (/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|TimeoutError/.test(code)) return "check BERTH_S3_ENDPOINT and that this machine reaches it";
  return "check BERTH_S3_BUCKET, BERTH_S3_ENDPOINT, BERTH_S3_REGION and the credentials";
}

/** Connects, says EHLO (and STARTTLS and AUTH when the URL asks for them), then leaves. */
export async function checkSmtp(env: Env): Promise<CheckResult> {
  const name = "SMTP";
  if (!env.smtpUrl) {
    return {
      name,
      status: "skipped",
      summary: `BERTH_SMTP_URL is not set: mail is written to ${path.join(env.dataDir, "outbox")} instead of being sent`,
    };
  }
  const where = withoutPassword(env.smtpUrl);
  // Loaded only here, as the mailer does: the other commands never need it.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    url: env.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.verify();
    return { name, status: "ok", summary: `${where} accepted a connection and answered EHLO` };
  } catch (error) {
    const said = `${codeOf(error)} ${errorText(error)}`;
    const fix = /EAUTH/.test(said)
      ? "the server refused the user name or password in BERTH_SMTP_URL"
      : /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNECTION|EDNS|[Tt]imeout/.test(said)
        ? "check the host and port in BERTH_SMTP_URL (587 for STARTTLS, 465 with smtps://) and that the mail server accepts connections from this machine"
        : /ETLS|SSL|TLS|certificate|wrong version/i.test(said)
          ? "check smtp:// against smtps:// in BERTH_SMTP_URL: smtps:// is TLS from the start (port 465), smtp:// upgrades with STARTTLS"
          : "check BERTH_SMTP_URL and the mail server's log";
    return { name, status: "problem", summary: `${where}: ${errorText(error)}`, fix };
  } finally {
    transport.close();
  }
}

/** Each active custom domain still leads to Berth, by the custom-domain job's own test of it. */
export async function checkCustomDomains(env: Env, database: Database): Promise<CheckResult> {
  const name = "custom-domain DNS";
  const domains = await listServedDomains(database.db);
  if (domains.length === 0) return { name, status: "ok", summary: "no active custom domains" };
  const dns = createDnsLookup(env.dnsServers);
  const urls = createSiteUrls(env);
  const results = await Promise.all(
    domains.map(async (domain) => {
      const siteHost = urls.host(domain.subdomain);
      return { domain, siteHost, check: await checkPointer(dns, { hostname: domain.hostname, token: "", siteHost }, env.publicIps) };
    }),
  );
  const wrong = results.filter((r) => !r.check.ok && !r.check.resolverFailed);
  const unanswered = results.filter((r) => !r.check.ok && r.check.resolverFailed);
  const resolver = env.dnsServers ? `BERTH_DNS_SERVERS (${env.dnsServers.join(", ")})` : "the system's resolver";
  if (unanswered.length === results.length) {
    return {
      name,
      status: "problem",
      summary: `${resolver} answered none of the ${plural(results.length, "lookup")}`,
      fix: "check that this machine reaches its DNS servers (BERTH_DNS_SERVERS, or /etc/resolv.conf)",
    };
  }
  if (wrong.length === 0 && unanswered.length === 0)
    return { name, status: "ok", summary: `all ${plural(results.length, "active custom domain")} lead here` };
  const target =
    env.publicIps.length > 0
      ? `a CNAME to the site's host, or A/AAAA records in ${env.publicIps.join(", ")}`
      : "a CNAME (or ALIAS) to the site's host";
  const details = [
    ...wrong.map((r) => `${r.domain.hostname} no longer leads here (expected ${target}: ${r.siteHost})`),
    ...unanswered.map((r) => `${r.domain.hostname}: ${resolver} did not answer`),
  ];
  return {
    name,
    status: "warning",
    summary: `${wrong.length + unanswered.length} of ${plural(results.length, "active custom domain")} did not check out`,
    details: details.length > MAX_LISTED ? [...details.slice(0, MAX_LISTED), `… and ${details.length - MAX_LISTED} more`] : details,
    fix: "their owners must point the DNS records back at Berth, as the domain's page in the dashboard shows; until then their visitors may not reach the site",
  };
}
