// Many requests as fast as a few keep-alive connections allow, for tests that flood a running
// Berth. Answers are read to the end and only their status is kept.
import http from "node:http";

export interface FloodRequest {
  host: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
}

/** Sends every request over `connections` keep-alive connections; resolves to the count of each status. */
export async function flood(port: number, requests: Iterable<FloodRequest>, connections = 8): Promise<Map<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map<number, number>();
  const queue = requests[Symbol.iterator]();
  const send = (next: FloodRequest) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path: next.path, headers: { ...next.headers, host: next.host }, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  const worker = async () => {
    for (let item = queue.next(); !item.done; item = queue.next()) {
      const status = await send(item.value);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

/** `count` items made by `make`, one at a time, so a flood never holds them all in memory. */
export function* generate<T>(count: number, make: (i: number) => T): Generator<T> {
  for (let i = 0; i < count; i++) yield make(i);
}
