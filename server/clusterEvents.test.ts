// Two processes' event buses joined through PostgreSQL LISTEN/NOTIFY, here two buses in one test
// process on one real server: events cross once, marked as relayed, and never echo back.
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { openDatabase, type Database } from "./db/client";
import { BerthEvents } from "./events";
import { startClusterEvents, type ClusterEvents } from "./clusterEvents";

const log = pino({ level: "silent" });

describe("cluster events over PostgreSQL", () => {
  let database: Database;
  const nodes: Array<{ events: BerthEvents; bridge: ClusterEvents }> = [];

  beforeAll(async () => {
    const url = inject("postgresAdminUrl");
    database = await openDatabase({ url });
    for (let i = 0; i < 2; i++) {
      const events = new BerthEvents();
      nodes.push({ events, bridge: await startClusterEvents({ url, db: database.db, events, log }) });
    }
  });
  afterAll(async () => {
    for (const node of nodes) await node.bridge.close();
    await database.close();
  });

  it("delivers a node's event to the other once, marked as relayed, without an echo", async () => {
    const [a, b] = nodes as [(typeof nodes)[number], (typeof nodes)[number]];
    const onA: boolean[] = [];
    const onB: Array<{ siteId: string; relaying: boolean }> = [];
    a.events.on("site", () => onA.push(a.events.relaying));
    b.events.on("site", (e) => onB.push({ siteId: e.siteId, relaying: b.events.relaying }));

    a.events.emit("site", { userId: "u1", siteId: "s1", subdomain: "abcde" });
    const deadline = Date.now() + 5000;
    while (onB.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    // Anything more would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(onB).toEqual([{ siteId: "s1", relaying: true }]);
    expect(onA).toEqual([false]);
    expect(b.events.relaying).toBe(false);
  });

  it("relays a deployment without its parsed configuration, which can exceed NOTIFY's limit", async () => {
    const [a, b] = nodes as [(typeof nodes)[number], (typeof nodes)[number]];
    const received = new Promise<unknown>((resolve) => b.events.once("deployment", (e) => resolve(e.deployment)));
    const deployment = {
      id: "d1",
      status: "success",
      config: { redirects: Array.from({ length: 500 }, (_, i) => ({ from: `/old/${i}`, to: `/new/${i}` })) },
    };
    a.events.emit("deployment", { userId: "u1", siteId: "s1", subdomain: "abcde", deployment: deployment as never });
    expect(await received).toEqual({ id: "d1", status: "success", config: null });
  });
});
