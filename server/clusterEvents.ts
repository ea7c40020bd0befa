// Several Berth processes on one PostgreSQL server: each process's events (server/events.ts) also
// go to the others through LISTEN/NOTIFY, so a deploy, rollback, delete, password or domain change
// made through one node drops the caches of every node and reaches every open dashboard.
//
// A relayed event is emitted locally with `events.relaying` set: caches and dashboards react to
// it, while listeners with side effects (mail, compression) leave it to the node it happened on.
// While the listening connection is down, notifications are lost; on reconnecting, `resync` tells
// every cache to start again from the database.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { FastifyBaseLogger } from "fastify";
import { sql } from "drizzle-orm";
import type { Db } from "./db/client";
import { RELAYED_EVENTS, type BerthEvents, type RelayedEvent } from "./events";

export const CHANNEL = "berth_events";
/** PostgreSQL refuses payloads of 8,000 bytes or more. */
const MAX_PAYLOAD = 7900;
const RECONNECT_MS = 1000;

interface Message {
  origin: string;
  type: RelayedEvent;
  payload: unknown;
}

/** What crosses the wire: small enough for NOTIFY, and enough for every listener. */
function slim(type: RelayedEvent, payload: unknown): unknown {
  if (type === "variants") return { shas: [] };
  if (type === "deployment") {
    const event = payload as { deployment: Record<string, unknown> };
    // The parsed _redirects/_headers can be large, and no listener of a relayed event reads them.
    return { ...event, deployment: { ...event.deployment, config: null } };
  }
  return payload;
}

export interface ClusterEvents {
  close(): Promise<void>;
}

export async function startClusterEvents(options: { url: string; db: Db; events: BerthEvents; log: FastifyBaseLogger }): Promise<ClusterEvents> {
  const { events, log, db } = options;
  const origin = randomUUID();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CHANNEL || message.payload === undefined) return;
    let parsed: Message;
    try {
      parsed = JSON.parse(message.payload) as Message;
    } catch {
      return;
    }
    if (parsed.origin === origin || !(RELAYED_EVENTS as readonly string[]).includes(parsed.type)) return;
    events.relay(parsed.type, parsed.payload);
  };

  // Loaded here, not at the top: a process on the embedded database never needs the driver.
  const { default: driver } = await import("pg");
  const connect = async (first: boolean): Promise<void> => {
    const next = new driver.Client({ connectionString: options.url });
    next.on("notification", onNotification);
    next.on("error", (error) => log.warn({ err: error }, "cluster events: connection lost"));
    next.on("end", () => {
      if (closed || client !== next) return;
      client = undefined;
      retry = setTimeout(() => void reconnect(), RECONNECT_MS);
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
    // Whatever happened while nobody listened is unknown: every cache starts again.
    if (!first) events.emit("resync");
  };

  const reconnect = async () => {
    if (closed) return;
    try {
      await connect(false);
      log.info("cluster events: listening again");
    } catch (error) {
      log.warn({ err: error }, "cluster events: could not reconnect");
      retry = setTimeout(() => void reconnect(), RECONNECT_MS);
    }
  };

  await connect(true);

  const forward = (type: RelayedEvent) => (payload: unknown) => {
    if (events.relaying) return;
    const text = JSON.stringify({ origin, type, payload: slim(type, payload) } satisfies Message);
    if (Buffer.byteLength(text) > MAX_PAYLOAD) {
      log.error({ type, bytes: Buffer.byteLength(text) }, "cluster events: event too large to relay");
      return;
    }
    db.execute(sql`select pg_notify(${CHANNEL}, ${text})`).catch((error: unknown) =>
      log.warn({ err: error, type }, "cluster events: could not notify"),
    );
  };
  const forwarders = RELAYED_EVENTS.map((type) => {
    const listener = forward(type);
    events.on(type, listener);
    return [type, listener] as const;
  });

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      for (const [type, listener] of forwarders) events.off(type, listener);
      await client?.end().catch(() => undefined);
    },
  };
}
