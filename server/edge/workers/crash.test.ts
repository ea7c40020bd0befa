// An edge worker that dies (a bug throws in it) under steady requests: only the connections it
// held fail, the pool starts it again (later after each death in a row, so one that dies at start
// does not spin), each death is logged once, and the new thread serves.
// Nothing of the dead thread stays open: neither the connections posted to it that it never took
// nor its sealed bodies' descriptors; and none on close, when every worker exits.
import { randomBytes } from "node:crypto";
import { readdirSync, readlinkSync } from "node:fs";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTestServer, type ListeningServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, zipOf } from "../../test/sites";
import { RawConnection, type RawResponse } from "../../test/rawHttp";
import { restartDelay } from "./pool";
import type { WorkerReport } from "./protocol";

/**
 * The process's open sockets and memfds, each as "fd target" (the workers are threads, so theirs
 * are listed too): what a dead worker could leak, connections and sealed bodies. Not the rest:
 * each thread's event loop opens some of its own lazily (io_uring at its first file read, for
 * one), so a restarted worker may hold fewer than the one it replaced without anything leaking.
 */
const openFds = (): Set<string> =>
  new Set(
    readdirSync("/proc/self/fd").flatMap((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`);
        return target.startsWith("socket:") || target.startsWith("/memfd:") ? [`${fd} ${target}`] : [];
      } catch {
        // Closed since the listing (the listing's own descriptor, for one).
        return [];
      }
    }),
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LogLine {
  at: number;
  msg: string;
  worker?: number;
  err?: { message: string };
  restartInMs?: number;
  lostConnections?: number;
  handedOverConnections?: number;
}

describe("restartDelay", () => {
  it("doubles with each death in a row, up to a minute", () => {
    expect([0, 1, 2, 3, 5, 6, 7, 40].map(restartDelay)).toEqual([1000, 2000, 4000, 8000, 32_000, 60_000, 60_000, 60_000]);
  });
});

describe("edge workers that die", () => {
  let server: TestServer;
  let host: string;
  let listening: ListeningServer;
  /** Descriptors open before any worker started, with no connection open. */
  let beforeThreads: Set<string>;
  const lines: LogLine[] = [];
  const clients: RawConnection[] = [];
  const big = randomBytes(64 * 1024);

  const connect = async () => {
    const connection = await RawConnection.open(listening.port);
    clients.push(connection);
    return connection;
  };
  const ask = (connection: RawConnection, path: string, timeoutMs?: number) => {
    connection.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    return connection.response({ timeoutMs });
  };
  const reports = () => server.edgeWorkers!.report();
  const deathsOf = (index: number) => lines.filter((line) => line.worker === index && line.msg.includes("died"));
  /** Waits until worker `index` runs in a thread other than `threadId`. */
  const restarted = (index: number, threadId: number) =>
    expect
      .poll(async () => (await reports()).some((r) => r.index === index && r.threadId !== threadId), { timeout: 60_000, interval: 200 })
      .toBe(true);
  const closeClients = async () => {
    for (const connection of clients.splice(0)) connection.close();
    await expect.poll(async () => (await reports()).every((r) => r.open === 0), { timeout: 5000 }).toBe(true);
  };
  /**
   * Once what closes asynchronously has closed, and for good: no socket open that was not open at
   * `before` (one open then may close meanwhile: a client's connection from an earlier step), and
   * `bodies` sealed bodies in all. Only the workers seal bodies here: the main thread serves the
   * small first page only.
   */
  const settled = async (before: Set<string>, bodies: number) => {
    const left = () => {
      const now = [...openFds()];
      return {
        newSockets: now.filter((fd) => fd.includes(" socket:") && !before.has(fd)),
        bodies: now.filter((fd) => fd.includes(" /memfd:")).length,
      };
    };
    await expect.poll(left, { timeout: 5000 }).toEqual({ newSockets: [], bodies });
    await sleep(500);
    expect(left()).toEqual({ newSockets: [], bodies });
  };
  const sealedIn = (all: WorkerReport[]) => all.reduce((sum, r) => sum + r.sealed, 0);

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push({ at: Date.now(), ...(JSON.parse(line) as Omit<LogLine, "at">) });
        done();
      },
    });
    // On demand, as a process starts them: the descriptors can be counted before any thread runs.
    server = await getTestServer("pglite", { edgeWorkers: 2, edgeWorkersOnDemand: true, log: pino({ level: "error" }, sink) });
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "page.html", data: "steady" },
      { name: "big.bin", data: big },
    ]);
    host = hostOf((await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" })).url);
    listening = await server.listen();
    beforeThreads = openFds();
    // The first visit starts the threads (and is served here).
    expect((await ask(await connect(), "/page")).status).toBe(200);
    while ((await reports()).length < 2) await sleep(200);
    for (const connection of clients.splice(0)) connection.close();
  });
  afterAll(async () => {
    for (const connection of clients.splice(0)) connection.close();
    await server.close();
  });

  it("starts a worker that died under steady requests again; only the connections it held fail", async () => {
    const dead = (await reports()).find((r) => r.index === 1)!;
    let stop = false;
    let served = 0;
    const failures: Array<{ opened: number; error: string }> = [];
    const visitor = async (n: number) => {
      while (!stop) {
        const opened = Date.now();
        const connection = await connect();
        for (let i = 0; i < 5 && !stop; i++) {
          let answer: RawResponse;
          try {
            answer = await ask(connection, `/page?visitor=${n}&i=${i}`);
          } catch (error) {
            failures.push({ opened, error: (error as Error).message });
            break;
          }
          expect(answer.status).toBe(200);
          expect(answer.body.toString()).toBe("steady");
          served++;
        }
        connection.close();
      }
    };
    const visitors = [0, 1, 2, 3].map(visitor);
    await expect.poll(() => served, { timeout: 10_000 }).toBeGreaterThan(40);

    server.edgeWorkers!.crashWorker(1);
    await expect.poll(() => deathsOf(1).length, { timeout: 10_000 }).toBe(1);
    const death = deathsOf(1)[0]!;
    expect(death.err?.message).toContain("crashed on purpose");
    expect(death.restartInMs).toBe(1000);
    // The other worker serves meanwhile, then both.
    const whileDead = served;
    await restarted(1, dead.threadId);
    expect(served).toBeGreaterThan(whileDead);
    const afterRestart = served;
    await expect.poll(() => served, { timeout: 10_000 }).toBeGreaterThan(afterRestart + 80);
    stop = true;
    await Promise.all(visitors);

    // Only connections that were open (or on their way to it) when it died failed, each closed.
    expect(failures.filter((f) => f.opened >= death.at)).toEqual([]);
    expect(failures.every((f) => f.error.includes("connection closed"))).toBe(true);
    const now = await reports();
    expect(now).toHaveLength(2);
    const fresh = now.find((r) => r.index === 1)!;
    expect(fresh.threadId).not.toBe(dead.threadId);
    expect(fresh.requests).toBeGreaterThan(0);
    // One line for the death, and nothing else went wrong.
    expect(lines).toHaveLength(1);
    await closeClients();
  });

  it("hands the connections posted to a dead worker that it never took to a live one, and closes its sealed bodies", async () => {
    const fdsBefore = openFds();
    const start = await reports();
    const dead = start.find((r) => r.index === 1)!;
    const deathsBefore = deathsOf(1).length;

    // Both workers cache the big file, sealed in a memfd each.
    for (const connection of await Promise.all([connect(), connect(), connect(), connect()])) {
      const answer = await ask(connection, "/big.bin");
      expect(answer.status).toBe(200);
      expect(answer.body.equals(big)).toBe(true);
    }
    expect((await reports()).find((r) => r.index === 1)!.sealed).toBeGreaterThan(0);

    // Worker 1 blocks, then throws: connections keep being posted to it meanwhile.
    const release = server.edgeWorkers!.crashWorker(1, { hold: true });
    const waiting = await Promise.all(Array.from({ length: 6 }, () => connect()));
    let answered = 0;
    const outcomes = waiting.map((connection) =>
      ask(connection, "/page", 15_000).then(
        (answer) => {
          answered++;
          return answer.status;
        },
        (error: Error) => error.message,
      ),
    );
    await expect.poll(() => answered, { timeout: 10_000 }).toBeGreaterThan(0);
    await sleep(500);
    release();

    const results = await Promise.all(outcomes);
    await expect.poll(() => deathsOf(1).length, { timeout: 10_000 }).toBe(deathsBefore + 1);
    const death = deathsOf(1)[deathsBefore]!;
    // After the first test, a second death in a row: twice the delay.
    expect(death.restartInMs).toBe(restartDelay(deathsBefore));
    expect(death.handedOverConnections).toBeGreaterThan(0);
    // Those it never took were answered by the other worker: every visitor got the page.
    expect(results).toEqual(Array.from({ length: 6 }, () => 200));

    await restarted(1, dead.threadId);
    await closeClients();
    // No connection left open, and only the bodies the live workers seal now.
    await settled(fdsBefore, sealedIn(await reports()));
  });

  it("starts a worker that dies at start again later each time, one line for each death", async () => {
    const dead = (await reports()).find((r) => r.index === 2)!;
    const first = Date.now();
    server.edgeWorkers!.crashWorker(2, { failedStarts: 2 });
    await restarted(2, dead.threadId);
    const deaths = deathsOf(2);
    expect(deaths.map((d) => d.restartInMs)).toEqual([1000, 2000, 4000]);
    expect(deaths.map((d) => d.err?.message)).toEqual([
      "edge worker 2 crashed on purpose (a test)",
      "edge worker 2 crashed on purpose at start (a test)",
      "edge worker 2 crashed on purpose at start (a test)",
    ]);
    // It waited for each delay in turn; nothing else was logged.
    expect(Date.now() - first).toBeGreaterThanOrEqual(7000);
    expect(lines.filter((line) => line.at >= first)).toHaveLength(3);
    // It serves again.
    const connection = await connect();
    expect((await ask(connection, "/page")).status).toBe(200);
    await closeClients();
  }, 90_000);

  it("on close, lets every worker exit and leaves no descriptor open", async () => {
    const held = await Promise.all([connect(), connect(), connect()]);
    for (const connection of held) expect((await ask(connection, "/big.bin")).status).toBe(200);
    await server.edgeWorkers!.close();
    for (const connection of held) await connection.closedByServer();
    expect(await reports()).toEqual([]);
    for (const connection of clients.splice(0)) connection.close();
    await settled(beforeThreads, 0);
  });
});
