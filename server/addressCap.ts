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
  /** Each admitted socket's release, until it closes or its connection moves (`detach`). */
  private readonly releases = new WeakMap<Socket, () => void>();

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
    const release = () => this.release(key);
    this.releases.set(socket, release);
    socket.once("close", release);
    return true;
  }

  /**
   * The socket's connection lives on elsewhere (another thread holds a copy of its descriptor):
   * it keeps counting until the returned function is called, not until this socket closes.
   */
  detach(socket: Socket): () => void {
    const release = this.releases.get(socket);
    if (release === undefined) return () => {};
    this.releases.delete(socket);
    socket.removeListener("close", release);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
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
