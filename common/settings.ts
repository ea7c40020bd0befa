// What each environment variable does and its default, written once: the docs page renders this
// list, `npm run docs:settings` writes the README's table from it, and scripts/docs-settings.test.ts
// fails when server/env.ts parses a variable missing here (or the other way round), when a plain
// default here is not the one env.ts applies, or when the README's table is stale. `backticks`
// mark code in both places.

export const SETTING_GROUPS = ["Server", "Database and files", "Mail and pages", "Accounts and limits", "Edge"] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

export interface SettingDoc {
  /** The variable, or the few that go together. */
  names: readonly string[];
  group: SettingGroup;
  /** What it does, in one line. */
  description: string;
  /** Its default, or what Berth does while it is unset. A plain value in backticks first is the parsed default. */
  default: string;
  /** Added in the README only: where the README says more. */
  readme?: string;
}

export const SETTINGS: readonly SettingDoc[] = [
  {
    names: ["PORT"],
    group: "Server",
    description: "the one port Berth listens on, for the dashboard, the API and every site",
    default: "`8080`",
  },
  {
    names: ["BERTH_DATA_DIR"],
    group: "Server",
    description: "where the embedded database, blobs, outbox and generated secret live; kept readable by Berth's own account only",
    default: "`./data`",
  },
  {
    names: ["BERTH_APP_URL"],
    group: "Server",
    description: "public URL of the dashboard; links in e-mails point here",
    default: "`http://localhost:$PORT`",
  },
  {
    names: ["BERTH_SITES_DOMAIN"],
    group: "Server",
    description:
      "sites are served at `{subdomain}.{BERTH_SITES_DOMAIN}`; a registrable domain apart from the dashboard's, e.g. `example-sites.net` beside `berth.example.com` (Berth refuses to start when they share one)",
    default: "`localhost`",
  },
  {
    names: ["BERTH_ALLOW_SHARED_DOMAIN"],
    group: "Server",
    description:
      "`true` starts Berth even though the dashboard's host and `BERTH_SITES_DOMAIN` share a registrable domain (by the Public Suffix List), which lets any hosted page set cookies the dashboard receives; for development only",
    default: "`false`",
  },
  {
    names: ["BERTH_TRUST_PROXY"],
    group: "Server",
    description: "`true` behind a reverse proxy, so `X-Forwarded-For` gives the client's address (used for rate limits and for counting visitors)",
    default: "`false`",
  },
  {
    names: ["BERTH_ROLES"],
    group: "Server",
    description: "roles this process runs: any of `api`, `web`, `edge`, `worker` (`--roles=` on the command line wins)",
    default: "`api,web,edge,worker` (all four)",
  },
  {
    names: ["BERTH_SHUTDOWN_DRAIN_SECONDS"],
    group: "Server",
    description:
      "seconds Berth keeps accepting requests after `SIGTERM` while `/api/health` answers `503` `draining` and every answer closes its connection, so a load balancer takes the node out before its port closes; `0` closes the port at once (one node)",
    default: "`0`",
    readme: "see [Rolling restart](#rolling-restart)",
  },
  {
    names: ["BERTH_SHUTDOWN_TIMEOUT_SECONDS"],
    group: "Server",
    description:
      "seconds the requests in flight when the port closes (uploads included) may take to finish; then they are cut off, the last visits are written and Berth exits. Keep drain plus this below the service manager's stop timeout (systemd `TimeoutStopSec`, 90 s; Docker's `stop_grace_period`, 10 s)",
    default: "`30`",
  },
  {
    names: ["BERTH_LOG_LEVEL"],
    group: "Server",
    description: "`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`",
    default: "`info`",
  },
  {
    names: ["BERTH_METRICS_TOKEN"],
    group: "Server",
    description:
      "serves Prometheus metrics at `/metrics` on the main port to requests that send `Authorization: Bearer` and this value (16 characters or more); others get `401`",
    default: "no `/metrics` on the main port",
    readme: "see [Monitoring](#monitoring)",
  },
  {
    names: ["BERTH_METRICS_LISTEN"],
    group: "Server",
    description:
      "an address and port such as `127.0.0.1:9464` where a listener of its own serves `/metrics` without the token; Berth refuses to start with one that is not a loopback address unless `BERTH_METRICS_TOKEN` is set too, which that listener then asks for",
    default: "no listener of its own",
    readme: "see [Monitoring](#monitoring)",
  },
  {
    names: ["DATABASE_URL"],
    group: "Database and files",
    description: "a PostgreSQL server, e.g. `postgres://berth@db.internal/berth`",
    default: "embedded PGlite in `$BERTH_DATA_DIR/db`",
  },
  {
    names: ["BERTH_DB_BUFFERS_MB"],
    group: "Database and files",
    description:
      "megabytes of the embedded database's page cache (PostgreSQL's `shared_buffers`), which it keeps in memory from the start; pages beyond it are read from the operating system's file cache. Raise it for a large database on a machine with memory to spare. Ignored with `DATABASE_URL`",
    default: "`16`",
  },
  {
    names: ["BERTH_S3_BUCKET"],
    group: "Database and files",
    description: "keep blobs in this S3-compatible bucket, so several nodes can share them",
    default: "files in `$BERTH_DATA_DIR/blobs`",
  },
  {
    names: ["BERTH_S3_ENDPOINT"],
    group: "Database and files",
    description: "URL of an S3-compatible server (MinIO, R2, …); needs `BERTH_S3_BUCKET`",
    default: "AWS",
  },
  {
    names: ["BERTH_S3_REGION"],
    group: "Database and files",
    description: "the bucket's region",
    default: "`us-east-1`",
  },
  {
    names: ["BERTH_S3_FORCE_PATH_STYLE"],
    group: "Database and files",
    description: "`true` puts the bucket in the path (`http://host/bucket/key`), `false` in the host name",
    default: "`true` with an endpoint, else `false`",
  },
  {
    names: ["BERTH_S3_PREFIX"],
    group: "Database and files",
    description: "a folder in the bucket for Berth's keys, e.g. `berth/` (a trailing `/` is added)",
    default: "the bucket's root",
  },
  {
    names: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"],
    group: "Database and files",
    description: "credentials for the bucket (the first two together)",
    default: "the AWS SDK's default chain (profile, instance or task role)",
  },
  {
    names: ["BERTH_ORPHAN_GRACE_SECONDS"],
    group: "Database and files",
    description:
      "how old a leftover of an interrupted operation must be before the worker deletes it: blobs no row refers to, temporary upload files (a deployment left in progress is marked failed after 10 minutes); must be longer than the slowest upload",
    default: "`86400` (a day)",
  },
  {
    names: ["BERTH_BACKUP_DAILY"],
    group: "Database and files",
    description:
      "the worker writes a backup a day into `$BERTH_DATA_DIR/backups` and keeps the newest 7 (each blob stored once across them); `false` turns this off, e.g. on all nodes but one",
    default: "`true`",
    readme: "see [Backups and restore](#backups-and-restore)",
  },
  {
    names: ["BERTH_SMTP_URL"],
    group: "Mail and pages",
    description: "outgoing mail, e.g. `smtp://user:pass@smtp.example.com:587`",
    default: "each message is written to `$BERTH_DATA_DIR/outbox/<time>-<to>.eml` and its link is logged",
  },
  {
    names: ["BERTH_MAIL_FROM"],
    group: "Mail and pages",
    description: "sender of every message Berth mails",
    default: "`Berth <no-reply@{host of BERTH_APP_URL}>`",
  },
  {
    names: ["BERTH_CONTACT_EMAIL"],
    group: "Mail and pages",
    description: "where contact-form messages go; also shown on the contact page",
    default: "none: messages are stored only",
  },
  {
    names: ["BERTH_CONTACT_ADDRESS"],
    group: "Mail and pages",
    description: "street address shown on the contact page and in the footer",
    default: "none",
  },
  {
    names: ["BERTH_CONTACT_PHONE"],
    group: "Mail and pages",
    description: "phone number shown on the contact page and in the footer",
    default: "none",
  },
  {
    names: ["BERTH_TERMS_FILE"],
    group: "Mail and pages",
    description: "a Markdown file that replaces the built-in terms of service",
    default: "built-in text",
  },
  {
    names: ["BERTH_PRIVACY_FILE"],
    group: "Mail and pages",
    description: "a Markdown file that replaces the built-in privacy policy",
    default: "built-in text",
  },
  {
    names: ["BERTH_SECRET"],
    group: "Accounts and limits",
    description: "signing secret for sessions and tokens (32+ characters)",
    default: "generated once and kept in `$BERTH_DATA_DIR/secret`",
  },
  {
    names: ["BERTH_ADMIN_EMAILS"],
    group: "Accounts and limits",
    description: "comma-separated e-mails of the operator's admins: they see the Admin page and can promote others",
    default: "none: no admins",
    readme: "see [Administration](#administration)",
  },
  {
    names: ["BERTH_UPGRADE_URL"],
    group: "Accounts and limits",
    description:
      "your own billing page: 'Upgrade' (to Pro, or your plans' `upgradeTo`) links there; `{email}` in it is replaced by the user's address (URL-encoded), and nothing else is added",
    default: "none: users request the plan 'Upgrade' offers from the dashboard and an admin approves it",
  },
  {
    names: ["BERTH_PLANS_FILE"],
    group: "Accounts and limits",
    description:
      "a JSON file of your own plans: each one's `id`, `name`, `price` label, `limits` (`storageBytes`, `maxFileBytes`, `deploymentsKept`; `null` for no limit) and `features`, exactly one marked `default` (new accounts start on it), and `upgradeTo`, the plan 'Upgrade' offers; read at startup, which lists every problem in it and refuses to start while an account is on a plan it leaves out",
    default: "the built-in Free (500 MB, 50 MB files, last 10 versions) and Pro (5 GB, 250 MB files, every version and feature)",
    readme: "see [Your own plans](#your-own-plans)",
  },
  {
    names: ["BERTH_MAX_SITES_PER_ACCOUNT"],
    group: "Accounts and limits",
    description: "sites one account may have; a deleted site counts until it is purged",
    default: "`1000`",
  },
  {
    names: ["BERTH_MAX_DOMAINS_PER_ACCOUNT"],
    group: "Accounts and limits",
    description: "custom domains one account may add, across its sites (each queues DNS checks and a certificate)",
    default: "`100`",
  },
  {
    names: ["BERTH_MAX_SHARE_LINKS_PER_SITE"],
    group: "Accounts and limits",
    description: "share links one site may have; a revoked link counts until it is deleted",
    default: "`100`",
  },
  {
    names: ["BERTH_MAX_API_TOKENS_PER_ACCOUNT"],
    group: "Accounts and limits",
    description: "API tokens one account may hold at once; a revoked token no longer counts",
    default: "`50`",
  },
  {
    names: ["BERTH_MAX_WEBHOOKS_PER_ACCOUNT"],
    group: "Accounts and limits",
    description: "webhooks one account may add, across its sites (each event is sent, and retried, to every matching one)",
    default: "`20`",
  },
  {
    names: ["BERTH_WEBHOOK_ALLOW_PRIVATE"],
    group: "Accounts and limits",
    description:
      "`true` lets webhooks go to private, loopback, link-local and other non-public addresses (`10.0.0.0/8`, `127.0.0.1`, `fc00::/7`…), which Berth otherwise refuses so that no user can make it call into its own network; for development, or a Berth whose users are all trusted",
    default: "`false`",
  },
  {
    names: ["BERTH_BODY_TIMEOUT_SECONDS"],
    group: "Accounts and limits",
    description:
      "seconds a request body (an upload, a form, an API call) may make no progress before it is answered `408` and its connection closed; an upload that keeps sending, however slowly, is never cut off",
    default: "`30`",
  },
  {
    names: ["BERTH_MAX_CONNECTIONS_PER_IP"],
    group: "Accounts and limits",
    description:
      "open connections one client address (IPv6: one `/64`) may hold; more are closed at once; `0` for no cap. Not applied with `BERTH_TRUST_PROXY`, where every connection comes from the proxy: cap per client there",
    default: "`256`",
  },
  {
    names: ["BERTH_EDGE_CACHE_MB"],
    group: "Edge",
    description:
      "megabytes for everything the edge keeps in memory, each counted in bytes: small site files (up to 1 MB each; larger ones are always streamed), deployments' file lists, each host's paths, ready-made answers, host names, verified cookies and visits not yet written. Made-up paths, hosts or visitors cannot make it keep more; at least `8`",
    default: "`256`",
    readme: "shares in [server/edge/README.md](server/edge/README.md#memory-one-budget-counted-in-bytes-memory)",
  },
  {
    names: ["BERTH_EDGE_WORKERS"],
    group: "Edge",
    description:
      "threads that serve site hosts on the same port; `1` serves them from the main thread, which always takes the connections and keeps the dashboard and the API. Each worker gets `BERTH_EDGE_CACHE_MB` divided by this number. Needs the native addon (Linux and a C compiler); without it sites are served from the main thread",
    default: "the number of cores",
    readme: "see [Performance](#performance)",
  },
  {
    names: ["BERTH_NATIVE_SEND"],
    group: "Edge",
    description: "`false` writes every body through Node even when the native addon is built",
    default: "`true`",
    readme: "see [Performance](#performance)",
  },
  {
    names: ["BERTH_ANALYTICS"],
    group: "Edge",
    description: "`false` stops the edge counting visits for the Analytics tab",
    default: "`true`",
    readme: "see [Analytics](#analytics)",
  },
  {
    names: ["BERTH_GEOIP_CSV"],
    group: "Edge",
    description:
      'a country database as CSV lines `first_ip,last_ip,country_code`, e.g. DB-IP\'s free "IP to Country Lite" file; the Analytics tab then lists countries',
    default: "no countries",
  },
  {
    names: ["BERTH_DNS_SERVERS"],
    group: "Edge",
    description:
      "comma-separated DNS servers for checking custom domains' records and looking up webhooks' hosts: `1.1.1.1`, `1.1.1.1:53`, `[2606:4700::1111]:53`",
    default: "the system's resolver",
    readme: "see [Custom domains and HTTPS](#custom-domains-and-https)",
  },
  {
    names: ["BERTH_PUBLIC_IPS"],
    group: "Edge",
    description: "comma-separated IPv4/IPv6 addresses of Berth that apex custom domains (`example.org`) point their A/AAAA records at",
    default: "apex domains use an ALIAS/ANAME record to the site's host",
  },
];
