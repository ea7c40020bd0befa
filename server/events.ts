// In-process notices between parts of one Berth process: services say what changed, the edge
// drops its caches and /api/events pushes the news to open dashboards.
import { EventEmitter } from "node:events";
import type { DomainStatus } from "../common/domains";
import type { Deployment } from "./db/repositories/deployments";
import type { Notice } from "./services/notifications/notify";
import type { CheckSummary } from "../common/checks";
import type { PublishSource } from "../common/metrics";

export interface SiteChanged {
  userId: string;
  siteId: string;
  subdomain: string;
}

export interface DeploymentChanged {
  userId: string;
  siteId: string;
  subdomain: string;
  deployment: Deployment;
  /** Its publish check's summary, when the event is the check's result. */
  check?: CheckSummary;
}

/** A custom domain was added, moved through provisioning, failed or (status null) was removed. */
export interface DomainChanged {
  userId: string;
  siteId: string;
  domainId: string;
  hostname: string;
  status: DomainStatus | null;
}

export interface VariantsReady {
  /** Blobs whose compressed forms were just made. */
  shas: string[];
}

/** New analytics roll-ups of a site. */
export interface AnalyticsUpdated {
  userId: string;
  siteId: string;
}

/** A notice was added to a user's feed (services/notifications/notify.ts). */
export interface NotificationAdded {
  userId: string;
  notificationId: string;
}

/** A publish ended, live or refused: how long it took (the metrics' deploy durations). */
export interface PublishTimed {
  source: PublishSource;
  outcome: "success" | "failed";
  seconds: number;
}

interface EventMap {
  site: [SiteChanged];
  deployment: [DeploymentChanged];
  variants: [VariantsReady];
  domain: [DomainChanged];
  analytics: [AnalyticsUpdated];
  notification: [NotificationAdded];
  /** A notice the user wants by e-mail (services/notifications/notify.ts); never relayed: this node sends it. */
  noticeMail: [Notice];
  /** Never relayed: each node times the publishes it ran. */
  publishTimed: [PublishTimed];
  /** Cached state may be stale (a cluster node lost its notifications): reload from the database. */
  resync: [];
}

/** The events other nodes hear about (clusterEvents.ts). */
export const RELAYED_EVENTS = ["site", "deployment", "variants", "domain", "analytics", "notification"] as const;
export type RelayedEvent = (typeof RELAYED_EVENTS)[number];

export class BerthEvents extends EventEmitter<EventMap> {
  /**
   * True while an event from another node is being emitted here: listeners with side effects
   * (mail, background work) skip it, since the node where it happened does them.
   */
  relaying = false;

  constructor() {
    super();
    // Every open dashboard tab listens; that is not a leak.
    this.setMaxListeners(0);
  }

  /** Emits another node's event locally, with `relaying` set. */
  relay(type: RelayedEvent, payload: unknown): void {
    this.relaying = true;
    try {
      (this.emit as (type: RelayedEvent, payload: unknown) => boolean)(type, payload);
    } finally {
      this.relaying = false;
    }
  }
}
