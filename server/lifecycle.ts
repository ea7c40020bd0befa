// Where the process is in its life, for what must behave differently once it is shutting down.
// On SIGTERM the process drains first (main.ts): /api/health answers 503 "draining" so a load
// balancer stops sending new requests, and every answer closes its connection so keep-alive
// clients reconnect (to another node, or to a refused port once the listener closes). Requests
// keep being answered in full all along.
export class Lifecycle {
  private isDraining = false;
  private readonly onDrain: Array<() => void> = [];

  get draining(): boolean {
    return this.isDraining;
  }

  /** Called once, at the first drain(); at once when draining already. */
  whenDraining(listener: () => void): void {
    if (this.isDraining) listener();
    else this.onDrain.push(listener);
  }

  drain(): void {
    if (this.isDraining) return;
    this.isDraining = true;
    for (const listener of this.onDrain.splice(0)) listener();
  }
}
