// The Prometheus metrics Berth serves at /metrics, written once: the server takes each one's help
// text from here, the docs page and the README list them, and server/metrics/metrics.test.ts fails
// when a metric is served without an entry here or listed here without being served.

export type MetricType = "counter" | "gauge" | "histogram";

export interface MetricDoc {
  name: string;
  type: MetricType;
  labels: readonly string[];
  /** What it counts or measures, in one line (also the exposition's HELP text). */
  help: string;
  /** A query worth putting on a dashboard or in an alert, as it would be pasted into Grafana. */
  promql: string;
  /** What that query shows. */
  shows: string;
}

/** Which host a request was for: the dashboard's (its pages, the API and anything not a site), a site's, or a custom domain's. */
export const HOST_KINDS = ["dashboard", "site", "custom_domain"] as const;
export type HostKind = (typeof HOST_KINDS)[number];

/** Where a publish came from: a change in the dashboard (Files tab, wizard, restore) or a deploy through the API (CLI, CI). */
export const PUBLISH_SOURCES = ["dashboard", "api"] as const;
export type PublishSource = (typeof PUBLISH_SOURCES)[number];

/** The work the worker keeps as rows and takes up in turn. */
export const JOB_QUEUES = ["webhook_deliveries", "deployment_checks", "custom_domains"] as const;
export type JobQueue = (typeof JOB_QUEUES)[number];

/** Berth's own metrics. */
export const METRICS: readonly MetricDoc[] = [
  {
    name: "berth_http_requests_total",
    type: "counter",
    labels: ["host_kind", "status_class"],
    help: "Requests answered, by host (dashboard, site, custom_domain) and status class (1xx to 5xx)",
    promql: 'sum(rate(berth_http_requests_total{status_class="5xx"}[5m])) / sum(rate(berth_http_requests_total[5m]))',
    shows: "the share of answers that are server errors",
  },
  {
    name: "berth_http_response_bytes_total",
    type: "counter",
    labels: ["host_kind"],
    help: "Bytes sent in answers, heads included, by host (dashboard, site, custom_domain)",
    promql: "sum by (host_kind) (rate(berth_http_response_bytes_total[5m])) * 8",
    shows: "bits per second sent, by host kind",
  },
  {
    name: "berth_edge_cache_requests_total",
    type: "counter",
    labels: ["result"],
    help: "Site file bodies the edge sent from memory (hit) or read from the blob store (miss)",
    promql: 'sum(rate(berth_edge_cache_requests_total{result="hit"}[5m])) / sum(rate(berth_edge_cache_requests_total[5m]))',
    shows: "the share of file bodies sent from memory",
  },
  {
    name: "berth_deploy_duration_seconds",
    type: "histogram",
    labels: ["source", "outcome"],
    help: "How long a publish took, from its start to the new version being live (success) or refused (failed); source is dashboard or api",
    promql: "histogram_quantile(0.95, sum by (le) (rate(berth_deploy_duration_seconds_bucket[1h])))",
    shows: "the time 95 % of publishes stayed under, over the last hour",
  },
  {
    name: "berth_jobs_waiting",
    type: "gauge",
    labels: ["queue"],
    help: "Jobs not yet done (webhook deliveries, publish checks, custom-domain steps), read from the database at scrape time",
    promql: 'max_over_time(berth_jobs_waiting{queue="webhook_deliveries"}[15m]) > 100',
    shows: "an alert: webhook deliveries are piling up",
  },
  {
    name: "berth_jobs_failed",
    type: "gauge",
    labels: ["queue"],
    help: "Jobs that gave up and are still on record (webhook deliveries for 30 days), read from the database at scrape time",
    promql: "delta(berth_jobs_failed[1h]) > 0",
    shows: "an alert: jobs gave up in the last hour",
  },
  {
    name: "berth_db_pool_connections",
    type: "gauge",
    labels: ["state"],
    help: "PostgreSQL only: the pool's open connections, busy or idle (at most 10)",
    promql: 'berth_db_pool_connections{state="busy"}',
    shows: "connections in use; at 10 the pool is full",
  },
  {
    name: "berth_db_pool_waiting",
    type: "gauge",
    labels: [],
    help: "PostgreSQL only: queries waiting for a free connection of the pool",
    promql: "max_over_time(berth_db_pool_waiting[5m]) > 0",
    shows: "an alert: queries had to wait for a connection",
  },
  {
    name: "berth_db_queries_in_flight",
    type: "gauge",
    labels: [],
    help: "Embedded PGlite only: statements and transactions under way; one runs at a time, in the serving thread, and the rest wait",
    promql: "max_over_time(berth_db_queries_in_flight[5m])",
    shows: "the most statements under way at once",
  },
];

/** Of the Node.js and process metrics Berth also serves (each prefixed berth_), the ones worth a panel. */
export const PROCESS_METRICS: readonly MetricDoc[] = [
  {
    name: "berth_process_resident_memory_bytes",
    type: "gauge",
    labels: [],
    help: "Resident memory of the process (an embedded PGlite database included)",
    promql: "berth_process_resident_memory_bytes",
    shows: "memory in use, in bytes",
  },
  {
    name: "berth_nodejs_heap_size_used_bytes",
    type: "gauge",
    labels: [],
    help: "JavaScript heap in use",
    promql: "berth_nodejs_heap_size_used_bytes",
    shows: "heap in use, in bytes",
  },
  {
    name: "berth_nodejs_eventloop_lag_p99_seconds",
    type: "gauge",
    labels: [],
    help: "99th percentile of the event loop's delay: how long a ready request may wait for the one thread that serves it",
    promql: "berth_nodejs_eventloop_lag_p99_seconds > 0.1",
    shows: "an alert: ready requests wait over 100 ms for the thread",
  },
  {
    name: "berth_process_cpu_seconds_total",
    type: "counter",
    labels: [],
    help: "CPU time the process used, user and system",
    promql: "rate(berth_process_cpu_seconds_total[5m])",
    shows: "cores in use",
  },
];

export function metricDoc(name: string): MetricDoc {
  const doc = METRICS.find((metric) => metric.name === name);
  if (!doc) throw new Error(`No documented metric ${name}`);
  return doc;
}
