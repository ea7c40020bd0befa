// The database schema: better-auth's tables (users, sessions, accounts, verifications, rate_limits),
// the product's entities (profiles, sites, their files and deployments, the subdomain pool), and
// the tables Berth adds to run them. Generated migrations live in /migrations; the same SQL runs
// on embedded PGlite and on a PostgreSQL server.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { API_TOKEN_PERMISSIONS } from "../../common/apiTokens";
import { DEVICE_LOGIN_STATUSES } from "../../common/deviceLogin";
import { DOMAIN_STATUSES } from "../../common/domains";
import { DEPLOY_STATUSES } from "../../common/deploys";
import { DEPLOYMENT_STATUSES, SITE_STATUSES } from "../../common/sites";
import { NOTIFICATION_KINDS, type NotificationChannelOverrides } from "../../common/notifications";
import { CONTACT_MESSAGE_KINDS, UPGRADE_REQUEST_STATUSES } from "../../common/support";
import { CHECK_STATUSES, type CheckCounts, type StoredFinding } from "../../common/checks";
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryType, type WebhookEvent } from "../../common/webhooks";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

// ── better-auth ────────────────────────────────────────────────────────────────
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  // better-auth's two-factor plugin: set once TOTP is verified.
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  // Berth's own: the quota's figure, the sum of the user's user_blobs sizes. Kept by triggers
  // (migrations/0020_user_blobs_presence.sql); better-auth never reads or writes it.
  storageUsed: bigint("storage_used", { mode: "number" }).notNull().default(0),
});

/** better-auth's two-factor plugin: the TOTP secret and backup codes, encrypted with the secret. */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factors_user_id_idx").on(t.userId), index("two_factors_secret_idx").on(t.secret)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("accounts_user_id_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/** better-auth's rate-limit counters: kept in the database so a restart does not reset them. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// ── the product's entities ───────────────────────────────────────────────────
export const profiles = pgTable("profiles", {
  id: text("id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  full_name: text("full_name"),
  company: text("company"),
  website: text("website"),
  avatar_url: text("avatar_url"),
  // Berth's own: the id of the plan the operator gave this user, one of the server's plans
  // (BERTH_PLANS_FILE, else the built-in free and pro). No CHECK: the operator's file decides the
  // ids, and startup refuses a file that leaves any account on a plan it does not define. New
  // accounts are written with the file's default plan; this column default is the built-in one's.
  plan: text("plan").notNull().default("free"),
  // Promoted by an admin. The e-mails in BERTH_ADMIN_EMAILS are admins without it.
  is_admin: boolean("is_admin").notNull().default(false),
  // Banned by an admin: cannot sign in, and their sites are not served, until unbanned.
  banned_at: timestamp("banned_at", { withTimezone: true }),
  // The profile picture, a blob (PNG, JPEG or WebP); avatar_url is where the dashboard loads it.
  avatar_sha256: text("avatar_sha256"),
  avatar_type: text("avatar_type"),
  // E-mail preferences.
  notify_deploy_failed: boolean("notify_deploy_failed").notNull().default(true),
  notify_domain_active: boolean("notify_domain_active").notNull().default(true),
  notify_weekly_summary: boolean("notify_weekly_summary").notNull().default(false),
  // Where each kind of notice goes, for the kinds whose channels differ from the defaults
  // (common/notifications.ts). The e-mail of a failed deployment and an active domain stay in
  // the two columns above, so their meaning never splits in two.
  notification_channels: jsonb("notification_channels").$type<NotificationChannelOverrides>().notNull().default({}),
  // The storage threshold (0, 80 or 100 % of the plan) the owner was last told about: a notice
  // goes out when usage crosses a higher one, not on every upload above it.
  storage_notice_level: smallint("storage_notice_level").notNull().default(0),
  updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sites = pgTable(
  "sites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description"),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: SITE_STATUSES }).notNull().default("pending"),
    is_deleted: boolean("is_deleted").notNull().default(false),
    deleted_at: timestamp("deleted_at", { withTimezone: true }),
    subdomain: text("subdomain").notNull().unique(),
    domain: text("domain"),
    created_at: createdAt(),
    // Berth's own: the deployment the edge serves. Moving it is how publish and rollback go live.
    live_deployment_id: uuid("live_deployment_id").references((): AnyPgColumn => deployments.id, { onDelete: "set null" }),
    updated_at: updatedAt(),
    // Pro: after expires_at every host of the site answers 410; before publish_at, 404.
    expires_at: timestamp("expires_at", { withTimezone: true }),
    publish_at: timestamp("publish_at", { withTimezone: true }),
    // The expires_at the owner was told is less than a day away: one notice per site per expiry.
    expiry_noticed_for: timestamp("expiry_noticed_for", { withTimezone: true }),
    // Pro: every host of the site asks for this password first. scrypt$N$r$p$salt$hash; null: open.
    password_hash: text("password_hash"),
    // Bumped on every change of the password; signed into visitors' cookies, so a change ends them.
    password_version: integer("password_version").notNull().default(0),
    // Pro: "private" serves the site only to browsers that opened one of its share links.
    visibility: text("visibility", { enum: ["public", "private"] })
      .notNull()
      .default("public"),
  },
  (t) => [
    index("sites_user_id_created_at_idx").on(t.user_id, t.created_at),
    check("sites_status_check", sql`${t.status} in ('pending', 'active', 'deleted')`),
  ],
);

export const deployments = pgTable(
  "deployments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    status: text("status", { enum: DEPLOYMENT_STATUSES }).notNull().default("pending"),
    deployment_url: text("deployment_url"),
    error: text("error"),
    created_at: createdAt(),
    // Berth's own: what the manifest holds, and what produced it ("Uploaded report.pdf").
    file_count: integer("file_count").notNull().default(0),
    total_size: bigint("total_size", { mode: "number" }).notNull().default(0),
    note: text("note"),
    published_at: timestamp("published_at", { withTimezone: true }),
    // The site's _redirects and _headers rules, parsed when the deployment was published.
    config: jsonb("config"),
    // Published as a draft: served on its version host only, never live until promoted.
    is_draft: boolean("is_draft").notNull().default(false),
  },
  (t) => [
    unique("deployments_site_id_version_key").on(t.site_id, t.version),
    check("deployments_status_check", sql`${t.status} in ('pending', 'in_progress', 'success', 'failed')`),
  ],
);

export const siteFiles = pgTable(
  "site_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    file_path: text("file_path").notNull(),
    file_type: text("file_type"),
    file_size: bigint("file_size", { mode: "number" }).notNull().default(0),
    is_folder: boolean("is_folder").notNull().default(false),
    parent_folder: text("parent_folder"),
    updated_at: updatedAt(),
    // Berth's own: the content's blob; null for folders.
    sha256: text("sha256"),
  },
  (t) => [
    index("site_files_site_id_parent_idx").on(t.site_id, t.parent_folder),
    unique("site_files_site_id_file_path_key").on(t.site_id, t.file_path),
    index("site_files_sha256_idx").on(t.sha256),
  ],
);

/**
 * When each deployment went live: one row per move of a site's live pointer (a publish, a rollback,
 * a promotion), so "what was live at 14:05 yesterday" is the newest row at or before that time. A
 * rollback moves the pointer back without a new deployment, so publish times alone cannot say.
 * The version stays when a pruned deployment goes (deployment_id null), to say which one it was.
 */
export const livePeriods = pgTable(
  "live_periods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    deployment_id: uuid("deployment_id").references(() => deployments.id, { onDelete: "set null" }),
    version: integer("version").notNull(),
    started_at: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("live_periods_site_id_started_at_idx").on(t.site_id, t.started_at)],
);

/** A deployment's manifest: immutable once the deployment is published. */
export const deploymentFiles = pgTable(
  "deployment_files",
  {
    deployment_id: uuid("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    content_type: text("content_type").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deployment_id, t.path] }), index("deployment_files_sha256_idx").on(t.sha256)],
);

/**
 * A deploy through the API, open while its files arrive (status "uploading"), then published or
 * failed. The manifest is one jsonb array of { path, sha256, size, content_type } sorted by path,
 * so a publish copies it into deployment_files in one statement. manifest_hash (the manifest,
 * message and draft flag) finds the open deploy a rerun resumes; null for a one-request deploy.
 */
export const deploys = pgTable(
  "deploys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    manifest: jsonb("manifest").notNull(),
    // Empty folders the deploy brings (paths, NFC): a manifest lists files only.
    folders: jsonb("folders").$type<string[]>().notNull().default([]),
    manifest_hash: text("manifest_hash"),
    file_count: integer("file_count").notNull(),
    total_size: bigint("total_size", { mode: "number" }).notNull(),
    message: text("message"),
    draft: boolean("draft").notNull().default(false),
    status: text("status", { enum: DEPLOY_STATUSES }).notNull().default("uploading"),
    deployment_id: uuid("deployment_id").references(() => deployments.id, { onDelete: "set null" }),
    error: text("error"),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("deploys_open_manifest_key")
      .on(t.site_id, t.manifest_hash)
      .where(sql`${t.status} = 'uploading'`),
    index("deploys_expires_at_idx").on(t.expires_at),
    check("deploys_status_check", sql`${t.status} in ('uploading', 'published', 'failed')`),
  ],
);

/**
 * The files an open deploy has received, by digest. Until the publish refers to them from
 * deployment_files, these rows are what keeps the bytes from the orphan sweep and from a release
 * elsewhere (blobsNothingRefersTo counts them while their deploy is open).
 */
export const deployUploads = pgTable(
  "deploy_uploads",
  {
    deploy_id: uuid("deploy_id")
      .notNull()
      .references(() => deploys.id, { onDelete: "cascade" }),
    sha256: text("sha256").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deploy_id, t.sha256] }), index("deploy_uploads_sha256_idx").on(t.sha256)],
);

/**
 * The distinct blobs each user stores: a row while any of their site_files or deployment_files rows
 * refers to the blob. What the quota counts, kept exact by triggers on those tables (and on sites
 * and deployments for cascades) in the transaction that changes them
 * (migrations/0020_user_blobs_presence.sql).
 */
export const userBlobs = pgTable(
  "user_blobs",
  {
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.sha256] })],
);

/**
 * Brotli and gzip forms of compressible blobs, made once in the background after a publish.
 * A null variant records that compressing did not make the blob smaller, so it is not tried again.
 */
export const blobVariants = pgTable(
  "blob_variants",
  {
    sha256: text("sha256").notNull(),
    encoding: text("encoding", { enum: ["br", "gzip"] }).notNull(),
    variant_sha256: text("variant_sha256"),
    size: bigint("size", { mode: "number" }),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.encoding] }), index("blob_variants_variant_idx").on(t.variant_sha256)],
);

/** Every blob the store holds, so that garbage can be found with a query instead of a bucket listing. */
export const blobs = pgTable("blobs", {
  sha256: text("sha256").primaryKey(),
  size: bigint("size", { mode: "number" }).notNull(),
  created_at: createdAt(),
});

export const availableSubdomains = pgTable(
  "available_subdomains",
  {
    subdomain: text("subdomain").primaryKey(),
    is_assigned: boolean("is_assigned").notNull().default(false),
    assigned_site_id: uuid("assigned_site_id").references(() => sites.id, { onDelete: "set null" }),
    created_at: createdAt(),
    // The wizard reserves a name for a user before the site exists.
    reserved_by: text("reserved_by").references(() => users.id, { onDelete: "set null" }),
    reserved_at: timestamp("reserved_at", { withTimezone: true }),
  },
  (t) => [index("available_subdomains_unassigned_idx").on(t.is_assigned)],
);

// ── Berth's own ───────────────────────────────────────────────────────────────
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    // Set once the message has been handed to the mailer; null when no contact address is configured.
    delivered_at: timestamp("delivered_at", { withTimezone: true }),
    delivery_error: text("delivery_error"),
    created_at: createdAt(),
    // 'support': sent from the dashboard's help page by a signed-in user (user_id, kept while the
    // account exists); 'contact': the public contact form, whose sender is only what they typed.
    kind: text("kind", { enum: CONTACT_MESSAGE_KINDS }).notNull().default("contact"),
    user_id: text("user_id").references(() => users.id, { onDelete: "set null" }),
    // An admin's handling: marked handled, and the one reply mailed to the sender (its text kept,
    // so the next admin sees what was answered).
    handled_at: timestamp("handled_at", { withTimezone: true }),
    handled_by: text("handled_by").references(() => users.id, { onDelete: "set null" }),
    reply_text: text("reply_text"),
    replied_at: timestamp("replied_at", { withTimezone: true }),
    replied_by: text("replied_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("contact_messages_created_at_idx").on(t.created_at),
    index("contact_messages_unhandled_idx")
      .on(t.created_at)
      .where(sql`${t.handled_at} is null`),
  ],
);

/**
 * A user's request to move to a higher plan (Pro, with the built-in plans), when the operator has
 * no billing page of their own (BERTH_UPGRADE_URL unset). At most one is pending per user (the
 * partial unique index); an admin answers it, and approving sets the plan asked for through the
 * admin's own set-plan.
 */
export const upgradeRequests = pgTable(
  "upgrade_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: UPGRADE_REQUEST_STATUSES }).notNull().default("pending"),
    created_at: createdAt(),
    answered_at: timestamp("answered_at", { withTimezone: true }),
    answered_by: text("answered_by").references(() => users.id, { onDelete: "set null" }),
    // The plan asked for. Null on requests made before a request named its plan: those asked for
    // the catalogue's upgradeTo.
    plan: text("plan"),
  },
  (t) => [
    uniqueIndex("upgrade_requests_one_pending_idx")
      .on(t.user_id)
      .where(sql`${t.status} = 'pending'`),
    index("upgrade_requests_user_id_created_at_idx").on(t.user_id, t.created_at),
    index("upgrade_requests_pending_idx")
      .on(t.created_at)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Custom domains (Pro). A row is one account's claim on a hostname for one of its sites. Claims
 * that are not verified may coexist across accounts (whoever proves the TXT record first wins);
 * once verified, a hostname belongs to that claim alone (the partial unique index).
 * Provisioning is a durable job: status + next_attempt_at are the schedule, so a restart resumes.
 */
export const domains = pgTable(
  "domains",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /** Lower case, ASCII (punycode), no trailing dot. */
    hostname: text("hostname").notNull(),
    /** The value of the TXT record `_berth.{hostname}` that proves ownership. */
    verification_token: text("verification_token").notNull(),
    status: text("status", { enum: DOMAIN_STATUSES }).notNull().default("pending"),
    /** Tries used by the current step (up to 10, 5 s apart). */
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }),
    /** Why the last step failed, in the exact words the dashboard shows on the domain (DOMAIN_ERRORS in common/domains.ts). */
    error: text("error"),
    verified_at: timestamp("verified_at", { withTimezone: true }),
    activated_at: timestamp("activated_at", { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    unique("domains_user_id_hostname_key").on(t.user_id, t.hostname),
    uniqueIndex("domains_verified_hostname_key")
      .on(t.hostname)
      .where(sql`${t.verified_at} is not null`),
    index("domains_site_id_idx").on(t.site_id),
    index("domains_due_idx").on(t.next_attempt_at),
    check("domains_status_check", sql`${t.status} in ('pending', 'dns_check', 'certificate', 'active', 'failed')`),
  ],
);

/** Private share links (Pro): each opens a site for one browser, with its own limits. */
export const shareLinks = pgTable(
  "share_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The URL's token is not stored: it is the id with an HMAC of it under a key derived from the
    // server secret, so a tampered token is refused before any query, and the owner can see the
    // URL again at any time.
    name: text("name").notNull(),
    expires_at: timestamp("expires_at", { withTimezone: true }),
    /** scrypt, as sites.password_hash; null: the link needs no password. */
    password_hash: text("password_hash"),
    max_views: integer("max_views"),
    views: integer("views").notNull().default(0),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index("share_links_site_id_idx").on(t.site_id)],
);

/**
 * API tokens: a script, CI job or the CLI acting for a user. Only the SHA-256 of the secret is
 * kept; the secret is 32 random bytes, so a fast hash is as safe as a slow one and lets every
 * request look its token up by an index.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    token_hash: text("token_hash").notNull().unique(),
    // The secret's first characters, so the owner can tell tokens apart; too short to guess from.
    prefix: text("prefix").notNull(),
    permission: text("permission", { enum: API_TOKEN_PERMISSIONS }).notNull(),
    // null: every site of the owner's, now and later.
    site_id: uuid("site_id").references(() => sites.id, { onDelete: "cascade" }),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }),
    last_used_at: timestamp("last_used_at", { withTimezone: true }),
    last_used_ip: text("last_used_ip"),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("api_tokens_user_id_created_at_idx").on(t.user_id, t.created_at),
    check("api_tokens_permission_check", sql`${t.permission} in ('read', 'deploy', 'full')`),
  ],
);

/** Webhooks: where the owner wants to hear of their sites' events (one site, or all of them). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // null: every site of the owner's, now and later.
    site_id: uuid("site_id").references(() => sites.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    // A subset of WEBHOOK_EVENTS (common/webhooks.ts).
    events: text("events").array().$type<WebhookEvent[]>().notNull(),
    // The signing secret, encrypted (AES-256-GCM, key derived from the server secret): unlike an
    // API token's, it cannot be kept as a hash, because the worker signs every delivery with it.
    secret_encrypted: text("secret_encrypted").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_id_created_at_idx").on(t.user_id, t.created_at)],
);

/**
 * One event for one endpoint, and its sending job: written in the transaction of the change it
 * reports, then claimed by a worker with a lease (lease_token until leased_until) and retried with
 * backoff until retry_until. Its id is the event's id, sent on every attempt.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    endpoint_id: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    type: text("type").$type<WebhookDeliveryType>().notNull(),
    // The exact body sent on every attempt.
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // Due at; null once delivered or failed.
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }),
    retry_until: timestamp("retry_until", { withTimezone: true }).notNull(),
    // The claim of the worker sending it now: its result is written only while the token matches.
    lease_token: uuid("lease_token"),
    leased_until: timestamp("leased_until", { withTimezone: true }),
    last_status_code: integer("last_status_code"),
    last_response_ms: integer("last_response_ms"),
    last_error: text("last_error"),
    created_at: createdAt(),
    delivered_at: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_endpoint_id_created_at_idx").on(t.endpoint_id, t.created_at),
    index("webhook_deliveries_due_idx")
      .on(t.next_attempt_at)
      .where(sql`${t.status} = 'pending'`),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/**
 * Sign-in requests of the `berth` CLI (common/deviceLogin.ts). Only a hash of the CLI's polling
 * secret is kept; the user code is what a person types, unique while its row exists. `user_id` is
 * whoever answered (null while pending). `used_at` is set when the CLI collected its token, in
 * the transaction that made the token, so a token is handed out at most once. The worker deletes
 * rows a day after they lapse.
 */
export const deviceLogins = pgTable(
  "device_logins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    device_code_hash: text("device_code_hash").notNull().unique(),
    user_code: text("user_code").notNull().unique(),
    client_name: text("client_name"),
    status: text("status", { enum: DEVICE_LOGIN_STATUSES }).notNull().default("pending"),
    user_id: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    answered_at: timestamp("answered_at", { withTimezone: true }),
    last_polled_at: timestamp("last_polled_at", { withTimezone: true }),
    used_at: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("device_logins_expires_at_idx").on(t.expires_at),
    check("device_logins_status_check", sql`${t.status} in ('pending', 'approved', 'denied')`),
  ],
);

/** Each open of a share link: the short access log the dashboard shows. No IP address is kept. */
export const shareLinkOpens = pgTable(
  "share_link_opens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    link_id: uuid("link_id")
      .notNull()
      .references(() => shareLinks.id, { onDelete: "cascade" }),
    opened_at: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    country: text("country"),
    user_agent: text("user_agent"),
  },
  (t) => [index("share_link_opens_link_id_opened_at_idx").on(t.link_id, t.opened_at)],
);

// ── analytics ──────────────────────────────────────────────────────────────────
// The edge counts requests in memory and writes them once a second, grouped: per site, one
// `analytics_batches` row holding that second's entries, each a distinct (host kind, path, status,
// page view, bot, referrer, country, visitor) with its requests and bytes. One row with a jsonb
// array costs the serving thread a quarter of what a thousand rows cost (the embedded database
// runs on it) and stores in a twentieth of the space; the `analytics_events` view unnests them
// for inspection and tests. The worker adds each batch once to the hourly and daily tables (kept
// 13 months), so a busy hour is never read twice; raw batches live 7 days. No IP address is
// stored: `visitor` is a hash of address and user agent with a salt that exists for one UTC day
// only (analytics_salts), so it cannot be linked to anyone after that day.

export const analyticsBatches = pgTable(
  "analytics_batches",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /** The minute the requests were served in. */
    at: timestamp("at", { withTimezone: true }).notNull(),
    /**
     * [{ host_kind, path, status, page_view, bot, referrer_host, country, visitor, requests, bytes }]:
     * host_kind is "subdomain", "deployment" ({sub}--v{n}) or "custom"; visitor is the daily-salted
     * hash, null for bots and failed requests, which count no visitor.
     */
    events: jsonb("events").notNull(),
    /** Added to the roll-ups: each batch is counted once, by whichever worker claims it. */
    rolled_up: boolean("rolled_up").notNull().default(false),
  },
  (t) => [
    index("analytics_batches_site_id_at_idx").on(t.site_id, t.at),
    index("analytics_batches_at_idx").on(t.at),
    index("analytics_batches_waiting_idx")
      .on(t.id)
      .where(sql`not ${t.rolled_up}`),
  ],
);

/**
 * The distinct visitor hashes of each site and UTC hour, so an hour's and a day's visitors are
 * counted without reading the raw batches again. Kept as long as the raw batches (7 days).
 */
export const analyticsVisitors = pgTable(
  "analytics_visitors",
  {
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    visitor: text("visitor").notNull(),
  },
  (t) => [primaryKey({ columns: [t.site_id, t.hour, t.visitor] }), index("analytics_visitors_hour_idx").on(t.hour)],
);

const rollupColumns = () => ({
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
  requests: integer("requests").notNull(),
  bot_requests: integer("bot_requests").notNull(),
  bandwidth: bigint("bandwidth", { mode: "number" }).notNull(),
});

export const analyticsHourly = pgTable(
  "analytics_hourly",
  {
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    ...rollupColumns(),
  },
  (t) => [primaryKey({ columns: [t.site_id, t.hour] }), index("analytics_hourly_hour_idx").on(t.hour)],
);

export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    site_id: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /** The UTC day's first instant. */
    day: timestamp("day", { withTimezone: true }).notNull(),
    ...rollupColumns(),
  },
  (t) => [primaryKey({ columns: [t.site_id, t.day] }), index("analytics_daily_day_idx").on(t.day)],
);

/**
 * The ranked lists per bucket: dimension "page" (views per path), "referrer" (views per host),
 * "status" (requests per code), "not_found" (404s per path), "country" (views per code). Each
 * roll-up adds only the top entries of what it read, so random URLs cannot grow it; a day keeps
 * the top entries of its hours.
 */
const topColumns = () => ({
  site_id: uuid("site_id")
    .notNull()
    .references(() => sites.id, { onDelete: "cascade" }),
  dimension: text("dimension").notNull(),
  key: text("key").notNull(),
  count: integer("count").notNull(),
});

export const analyticsHourlyTop = pgTable(
  "analytics_hourly_top",
  { ...topColumns(), hour: timestamp("hour", { withTimezone: true }).notNull() },
  (t) => [primaryKey({ columns: [t.site_id, t.hour, t.dimension, t.key] }), index("analytics_hourly_top_hour_idx").on(t.hour)],
);

export const analyticsDailyTop = pgTable("analytics_daily_top", { ...topColumns(), day: timestamp("day", { withTimezone: true }).notNull() }, (t) => [
  primaryKey({ columns: [t.site_id, t.day, t.dimension, t.key] }),
  index("analytics_daily_top_day_idx").on(t.day),
]);

/** One random salt per UTC day for visitor hashes; deleted once its day is over. */
export const analyticsSalts = pgTable("analytics_salts", {
  day: timestamp("day", { withTimezone: true }).primaryKey(),
  salt: text("salt").notNull(),
});

/** Weekly summary mails sent, one row per user and week: a restart or a second worker never sends twice. */
export const weeklySummaries = pgTable(
  "weekly_summaries",
  {
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The Monday (UTC) the summarised week began. */
    week: timestamp("week", { withTimezone: true }).notNull(),
    sent_at: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.week] })],
);

/**
 * A user's notification feed (common/notifications.ts): one row per notice, written after the
 * change it reports committed, read and marked read by its owner, deleted after 90 days.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    title: text("title").notNull(),
    body: text("body"),
    link: text("link"),
    // No foreign key: a notice about a site outlives the site's purge, and says what happened.
    site_id: uuid("site_id"),
    created_at: createdAt(),
    read_at: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    index("notifications_user_id_created_at_idx").on(t.user_id, t.created_at),
    index("notifications_unread_idx")
      .on(t.user_id)
      .where(sql`${t.read_at} is null`),
  ],
);

/**
 * The publish check of a deployment (common/checks.ts): a durable job, inserted in the transaction
 * that publishes the deployment and claimed by the worker with a lease (as webhook deliveries
 * are), so a restart loses no check and going live never waits for one. Goes with its deployment.
 */
export const deploymentChecks = pgTable(
  "deployment_checks",
  {
    deployment_id: uuid("deployment_id")
      .primaryKey()
      .references(() => deployments.id, { onDelete: "cascade" }),
    status: text("status", { enum: CHECK_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // The claim of the worker checking it now: its result is written only while the token matches.
    lease_token: uuid("lease_token"),
    leased_until: timestamp("leased_until", { withTimezone: true }),
    problem_count: integer("problem_count").notNull().default(0),
    // Per kind, every problem found; `findings` keeps the first 200 (StoredFinding[]).
    counts: jsonb("counts").$type<CheckCounts>().notNull().default({}),
    findings: jsonb("findings").$type<StoredFinding[]>().notNull().default([]),
    // What "Fix case mismatches" renames (CaseRename[], server/check/checkFiles.ts).
    renames: jsonb("renames").$type<Array<{ from: string; to: string; keep: boolean }>>().notNull().default([]),
    files_checked: integer("files_checked").notNull().default(0),
    files_partly_checked: integer("files_partly_checked").notNull().default(0),
    error: text("error"),
    created_at: createdAt(),
    checked_at: timestamp("checked_at", { withTimezone: true }),
  },
  (t) => [
    index("deployment_checks_due_idx")
      .on(t.created_at)
      .where(sql`${t.status} = 'pending'`),
    check("deployment_checks_status_check", sql`${t.status} in ('pending', 'done', 'failed')`),
  ],
);
