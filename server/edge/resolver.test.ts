// The resolver's cache against a change that lands while it is reading: a publish that commits
// and is announced between the resolver's site lookup and its manifest load must not leave the
// old deployment cached (it would be served until the next change). The change is made after
// every possible number of event-loop turns, so whichever await it falls behind is covered.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../test/sites";
import { BerthEvents } from "../events";
import { EdgeResolver } from "./resolver";
import { EdgeMemory } from "./memory/budget";
import { watchedDb } from "../test/watchedDb";

describe.each(DRIVERS)("the edge resolver's cache (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it("never keeps what it read before a change it heard about while reading", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>one</h1>"));
    expect((await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile("<h1>two</h1>"))).statusCode).toBe(201);
    const [second, first] = (await client.get(`/api/sites/${site.id}/deployments`)).json().deployments as Array<{ id: string }>;
    const setLive = (id: string) => server.ctx.db.execute(sql`update sites set live_deployment_id = ${id} where id = ${site.id}`);

    const stale: number[] = [];
    for (let turns = 0; turns < 40; turns++) {
      const events = new BerthEvents();
      const resolver = new EdgeResolver(server.ctx.db, events, new EdgeMemory(server.ctx.env.edgeCacheBytes));
      await setLive(first!.id);
      const resolving = resolver.resolve(site.subdomain);
      for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
      // A publish: committed, then announced.
      await setLive(second!.id);
      events.emit("site", { userId: "", siteId: site.id, subdomain: site.subdomain });
      await resolving;
      const cached = resolver.peek(site.subdomain);
      if (cached && cached.manifest.deploymentId !== second!.id) stale.push(turns);
      expect((await resolver.resolve(site.subdomain))?.manifest.deploymentId).toBe(second!.id);
    }
    expect(stale).toEqual([]);
  });

  async function until(condition: () => boolean): Promise<void> {
    for (let turns = 0; !condition(); turns++) {
      if (turns > 1000) throw new Error("never happened");
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it("reads a cold host once, however many requests ask for it together", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>herd</h1>"));
    const { db, statements } = watchedDb(server.ctx.db);
    const memory = () => new EdgeMemory(server.ctx.env.edgeCacheBytes);

    await new EdgeResolver(db, new BerthEvents(), memory()).resolve(site.subdomain);
    const alone = statements.length;
    expect(alone).toBeGreaterThanOrEqual(3); // the site, the deployment and its files, their compressed forms

    statements.length = 0;
    const resolver = new EdgeResolver(db, new BerthEvents(), memory());
    const hosts = await Promise.all(Array.from({ length: 20 }, () => resolver.resolve(site.subdomain)));
    expect(statements.length).toBe(alone);
    expect(new Set(hosts.map((host) => host?.manifest)).size).toBe(1);
    expect(hosts[0]?.manifest.files.has("index.html")).toBe(true);
  });

  it("does not share a read begun before a change it heard about", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>one</h1>"));
    const counting = watchedDb(server.ctx.db);
    const events = new BerthEvents();
    const resolver = new EdgeResolver(counting.db, events, new EdgeMemory(server.ctx.env.edgeCacheBytes));
    const siteLookups = () => counting.statements.filter((text) => text.includes('from "sites"')).length;

    counting.held = true;
    const before = resolver.resolve(site.subdomain);
    await until(() => siteLookups() === 1);
    events.emit("site", { userId: "", siteId: site.id, subdomain: site.subdomain });
    const after = resolver.resolve(site.subdomain);
    // The second request asks for the site itself instead of joining a read from before the change.
    await until(() => siteLookups() === 2);
    counting.release();
    const [first, second] = await Promise.all([before, after]);
    expect(second?.manifest.files.has("index.html")).toBe(true);
    expect(first?.manifest.deploymentId).toBe(second?.manifest.deploymentId);
  });
});
