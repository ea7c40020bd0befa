// GET /api/events over a real socket: a signed-in dashboard hears of its own domains' changes,
// and never of another user's.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerEvent } from "../../../common/sites";
import { addDomainTo } from "../../test/domains";
import { ownerWithSite } from "../../test/factories";
import { getTestServer, type TestClient, type TestServer } from "../../test/support";
import { desc, eq } from "drizzle-orm";
import { notifications } from "../../db/schema";
import { notify } from "../../services/notifications/notify";
import { MAX_UNREAD_BYTES } from "./routes";

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

/** Opens the stream with the client's session and collects its events until close(). */
function openStream(port: number, client: TestClient): Promise<{ events: ServerEvent[]; close(): void }> {
  const cookie = cookieOf(client);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/api/events", headers: { cookie, host: "localhost:8080" } }, (res) => {
      const events: ServerEvent[] = [];
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (message.startsWith("data: ")) events.push(JSON.parse(message.slice(6)) as ServerEvent);
        }
      });
      resolve({ events, close: () => req.destroy() });
    });
    req.on("error", reject);
  });
}

describe("GET /api/events", () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await getTestServer("pglite");
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    port = (server.app.server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  it("pushes the user's domain changes, and nobody else's", async () => {
    const owner = await ownerWithSite(server, "pro", [{ name: "index.html", data: "x" }]);
    const other = await ownerWithSite(server, "pro", [{ name: "index.html", data: "y" }]);
    const mine = await openStream(port, owner.client);
    const theirs = await openStream(port, other.client);
    try {
      const domain = await addDomainTo(owner.client, owner.site.id, "www.events.test");
      await owner.client.delete(`/api/domains/${domain.id}`);
      await expect
        .poll(() => mine.events.filter((e) => e.type === "domain"))
        .toEqual([
          { type: "domain", site_id: owner.site.id, domain_id: domain.id },
          { type: "domain", site_id: owner.site.id, domain_id: domain.id },
        ]);
      expect(theirs.events.filter((e) => e.type === "domain")).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it("pushes a notice added to the user's feed, and nobody else's", async () => {
    const owner = await ownerWithSite(server, "free", [{ name: "index.html", data: "x" }]);
    const other = await ownerWithSite(server, "free", [{ name: "index.html", data: "y" }]);
    await server.notices.settled();
    const mine = await openStream(port, owner.client);
    const theirs = await openStream(port, other.client);
    try {
      await notify(server.ctx, { userId: owner.user.id, kind: "support_message", title: "Hello" });
      const [row] = await server.ctx.db
        .select()
        .from(notifications)
        .where(eq(notifications.user_id, owner.user.id))
        .orderBy(desc(notifications.created_at))
        .limit(1);
      await expect.poll(() => mine.events.filter((e) => e.type === "notification")).toEqual([{ type: "notification", notification_id: row!.id }]);
      expect(theirs.events.filter((e) => e.type === "notification")).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it("cuts a stream whose client stopped reading, and keeps one that reads", async () => {
    const owner = await ownerWithSite(server, "free", [{ name: "index.html", data: "x" }]);
    const listeners = () => server.ctx.events.listenerCount("analytics");
    const before = listeners();
    const reader = await openStream(port, owner.client);
    // A client that reads the head of the answer, then nothing more.
    const stalled = net.connect(port, "127.0.0.1");
    await once(stalled, "connect");
    stalled.write(`GET /api/events HTTP/1.1\r\nHost: localhost:8080\r\nCookie: ${cookieOf(owner.client)}\r\n\r\n`);
    await once(stalled, "data");
    stalled.pause();
    try {
      await expect.poll(listeners).toBe(before + 2);
      // Events in rounds, each one read in full by the reading client before the next, until the
      // kernel's buffers for the stalled one are full and the server's share passes the limit
      // (bounded: 30 MB at most).
      const perRound = 500;
      let sent = 0;
      for (let round = 0; round < 1000 && listeners() === before + 2; round++) {
        for (let i = 0; i < perRound; i++) server.ctx.events.emit("analytics", { userId: owner.user.id, siteId: owner.site.id });
        sent += perRound;
        await expect.poll(() => reader.events.length, { interval: 1 }).toBe(sent);
      }
      // The stalled stream went, with its listeners; the reading one stays and has every event.
      await expect.poll(listeners).toBe(before + 1);
      expect(sent * 60).toBeGreaterThan(MAX_UNREAD_BYTES);
      expect(reader.events).toHaveLength(sent);
      server.ctx.events.emit("analytics", { userId: owner.user.id, siteId: owner.site.id });
      await expect.poll(() => reader.events.length).toBe(sent + 1);
    } finally {
      reader.close();
      stalled.destroy();
    }
    await expect.poll(listeners).toBe(before);
  });
});
