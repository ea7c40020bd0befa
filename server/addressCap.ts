// Open connections per client address are capped, so one address cannot hold every file
// descriptor (and the memory behind them) while connections from other addresses are still
// served. A socket counts from accept to close; one over the cap is closed at once, before
// anything is read from it, which is the cheapest answer while someone is trying.
//
// Behind a trusted proxy every connection comes from the proxy, so no cap applies there
// (env.ts); the proxy is the place to cap per client.
import type { Socket } from "node:net";
import { addressKey } from "./http/address";
import type { FastifyBaseLogger } from "fastify";

export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();
  /** Addresses already logged as over the cap, until their count falls back to zero. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly max: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Counts the socket until it closes; false (and nothing counted) when its address is at the cap. */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress;
    // Gone before it was accepted: nothing to serve.
    if (address === undefined) return false;
    const key = addressKey(address);
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) {
      if (!this.reported.has(key)) {
        this.reported.add(key);
        this.log.warn({ address: key, max: this.max }, "client address at its connection cap: new connections are closed");
      }
      return false;
    }
    this.open.set(key, count + 1);
    socket.once("close", () => this.release(key));
    return true;
  }

  private release(key: string): void {
    const left = (this.open.get(key) ?? 1) - 1;
    if (left > 0) this.open.set(key, left);
    else {
      this.open.delete(key);
      this.reported.delete(key);
    }
  }
}
