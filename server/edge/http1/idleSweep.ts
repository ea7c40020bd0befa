// Closes the edge's idle keep-alive connections: one timer for all of them, instead of a timer
// per socket that node re-arms on every read and every write (see EdgeConnection.idle).

export interface Sweepable {
  idle(now: number, periodMs: number): void;
}

export class IdleSweep {
  /** Date.now() as of the last sweep: connections stamp their activity with it. */
  now = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connections: Iterable<Sweepable>,
    readonly periodMs = 250,
  ) {}

  start(): void {
    if (this.timer) return;
    this.now = Date.now();
    this.timer = setInterval(this.sweep, this.periodMs);
    // The sweep alone must not keep a process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private readonly sweep = (): void => {
    this.now = Date.now();
    for (const connection of this.connections) connection.idle(this.now, this.periodMs);
  };
}
