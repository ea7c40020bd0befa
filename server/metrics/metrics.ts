// Berth's Prometheus metrics (the list, with meanings and queries, is common/metrics.ts). Counting
// is always on and costs the serving path plain additions (counts.ts). prom-client only turns the
// totals into text when /metrics is scraped, and is loaded only by a server that serves /metrics
// (BERTH_METRICS_TOKEN or BERTH_METRICS_LISTEN, serve.ts): with it, its default metrics and their
// event-loop monitor cost about 2 MB and a timer every 10 ms in a server nobody scrapes.
import type { Registry } from "prom-client";
import type { FastifyBaseLogger } from "fastify";
import { HOST_KINDS, metricDoc, PUBLISH_SOURCES } from "../../common/metrics";
import { databaseActivity, type Db } from "../db/client";
import { countQueuedJobs } from "../db/repositories/jobQueues";
import type { BerthEvents, PublishTimed } from "../events";
import { ServingCounts, STATUS_CLASSES } from "./counts";

/** Everything, in the Prometheus text format. */
export interface Exposition {
  /** The exposition format's media type. */
  readonly contentType: string;
  /** Reads the job queues from the database first. */
  text(): Promise<string>;
}

export interface BerthMetrics {
  /** This thread's: fed by the HTTP server, the edge's HTTP/1.1 layer and its answers (edge/respond.ts). */
  readonly counts: ServingCounts;
  /** Adds other threads' counts (the edge workers') to this thread's at every scrape. */
  include(source: () => Iterable<ServingCounts>): void;
  /** Present when this server serves /metrics; otherwise nothing is kept but the counts. */
  readonly exposition: Exposition | undefined;
}

export interface MetricsOptions {
  db: Db;
  events: BerthEvents;
  log: FastifyBaseLogger;
  /** Whether /metrics is served (BERTH_METRICS_TOKEN or BERTH_METRICS_LISTEN is set). */
  exposed: boolean;
}

const DEPLOY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

let processMetrics: Registry | undefined;

type PromClient = typeof import("prom-client");

/**
 * The process's own metrics (memory, heap, CPU, event-loop lag), once per process: they describe
 * the process, not one server in it, and each collection starts an event-loop monitor that would
 * otherwise pile up with every test server.
 */
function processRegistry({ Registry, collectDefaultMetrics }: PromClient): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics, prefix: "berth_" });
  }
  return processMetrics;
}

export async function createMetrics(options: MetricsOptions): Promise<BerthMetrics> {
  const counts = new ServingCounts();
  const sources: Array<() => Iterable<ServingCounts>> = [];
  const include = (source: () => Iterable<ServingCounts>) => void sources.push(source);
  if (!options.exposed) return { counts, include, exposition: undefined };
  const exposition = exposeMetrics(await import("prom-client"), options, counts, sources);
  return { counts, include, exposition };
}

function exposeMetrics(
  prom: PromClient,
  options: MetricsOptions,
  counts: ServingCounts,
  sources: ReadonlyArray<() => Iterable<ServingCounts>>,
): Exposition {
  const { Counter, Gauge, Histogram, Registry } = prom;
  const { db, events, log } = options;
  const own = new Registry();
  /** The sum over this thread and every source, read once per series. */
  const total = (read: (c: ServingCounts) => number) => {
    let sum = read(counts);
    for (const source of sources) for (const other of source()) sum += read(other);
    return sum;
  };
  const docOf = (name: string) => ({ name, help: metricDoc(name).help, labelNames: metricDoc(name).labels, registers: [own] });

  new Counter({
    ...docOf("berth_http_requests_total"),
    collect() {
      this.reset();
      HOST_KINDS.forEach((host_kind, kind) =>
        STATUS_CLASSES.forEach((status_class, i) =>
          this.inc(
            { host_kind, status_class },
            total((c) => c.requests(kind, i)),
          ),
        ),
      );
    },
  });
  new Counter({
    ...docOf("berth_http_response_bytes_total"),
    collect() {
      this.reset();
      HOST_KINDS.forEach((host_kind, kind) =>
        this.inc(
          { host_kind },
          total((c) => c.bytes(kind)),
        ),
      );
    },
  });
  new Counter({
    ...docOf("berth_edge_cache_requests_total"),
    collect() {
      this.reset();
      this.inc(
        { result: "hit" },
        total((c) => c.hits),
      );
      this.inc(
        { result: "miss" },
        total((c) => c.misses),
      );
    },
  });

  const deploys = new Histogram({ ...docOf("berth_deploy_duration_seconds"), buckets: DEPLOY_BUCKETS });
  // Every series from the start, so a rate over a quiet hour reads 0 rather than nothing.
  for (const source of PUBLISH_SOURCES) for (const outcome of ["success", "failed"]) deploys.zero({ source, outcome });
  events.on("publishTimed", ({ source, outcome, seconds }: PublishTimed) => deploys.observe({ source, outcome }, seconds));

  const waiting = new Gauge(docOf("berth_jobs_waiting"));
  const failed = new Gauge(docOf("berth_jobs_failed"));
  const readQueues = async () => {
    try {
      const counts = await countQueuedJobs(db);
      for (const { queue, waiting: w, failed: f } of counts) {
        waiting.set({ queue }, w);
        failed.set({ queue }, f);
      }
    } catch (error) {
      // The rest still tells the operator something; absent series say the read failed.
      log.warn({ err: error }, "metrics: could not count the job queues");
      waiting.reset();
      failed.reset();
    }
  };

  // Taken as a scrape begins, before its own read of the queues adds to it.
  let activity = databaseActivity(db);
  if (activity?.kind === "postgres") {
    new Gauge({
      ...docOf("berth_db_pool_connections"),
      collect() {
        if (activity?.kind !== "postgres") return;
        this.set({ state: "busy" }, activity.total - activity.idle);
        this.set({ state: "idle" }, activity.idle);
      },
    });
    new Gauge({
      ...docOf("berth_db_pool_waiting"),
      collect() {
        if (activity?.kind === "postgres") this.set(activity.waiting);
      },
    });
  } else if (activity?.kind === "pglite") {
    new Gauge({
      ...docOf("berth_db_queries_in_flight"),
      collect() {
        if (activity?.kind === "pglite") this.set(activity.inFlight);
      },
    });
  }

  const registry = Registry.merge([processRegistry(prom), own]);
  return {
    contentType: registry.contentType,
    async text() {
      activity = databaseActivity(db);
      await readQueues();
      return registry.metrics();
    },
  };
}
