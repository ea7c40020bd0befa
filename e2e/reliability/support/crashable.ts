// One Berth installation (a data directory, and a PostgreSQL database when asked) that the tests
// start, SIGKILL and start again as often as they like, the way a power cut or the OOM killer
// would treat it. Every start is the built server (dist/server/main.js) as a real process.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, runBerth, type RunningProcess } from "../../support/berth";
import { Outbox } from "../../../server/test/outbox";

export interface Uptime {
  /** When the process answered /api/health (epoch ms). */
  healthyAt: number;
  /** When it was killed or stopped. */
  endedAt: number;
}

export class CrashableBerth {
  readonly dataDir: string;
  readonly outbox: Outbox;
  port = 0;
  /** Every life of the process, oldest first. */
  readonly lives: Uptime[] = [];
  private proc: RunningProcess | undefined;
  private current: Uptime | undefined;
  private lastOutput = "";

  constructor(private readonly env: Record<string, string>) {
    this.dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-reliability-"));
    this.outbox = new Outbox(path.join(this.dataDir, "outbox"));
  }

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  get running(): boolean {
    return this.proc !== undefined;
  }

  /** Output of the running process, or of the last one. */
  output(): string {
    return this.proc?.output() ?? this.lastOutput;
  }

  /** Starts the server and resolves once /api/health answers; keeps the port across restarts. */
  async start(): Promise<void> {
    const proc = await this.spawn();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const exitCode = await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 20, "running"))]);
      if (exitCode !== "running") {
        this.proc = undefined;
        this.lastOutput = proc.output();
        throw new Error(`Berth exited (${String(exitCode)}) during startup:\n${proc.output()}`);
      }
      if (await this.healthy()) break;
      if (Date.now() > deadline) throw new Error(`Berth did not become healthy:\n${proc.output()}`);
    }
    this.began();
  }

  /**
   * Starts the server and SIGKILLs it `delayMs` after the spawn, whether or not it has become
   * healthy by then (a kill during start-up, or during what the worker does first).
   */
  async startAndKill(delayMs: number): Promise<{ becameHealthy: boolean }> {
    const proc = await this.spawn();
    const killAt = Date.now() + delayMs;
    let becameHealthy = false;
    while (Date.now() < killAt) {
      const exitCode = await Promise.race([
        proc.exited,
        new Promise((r) => setTimeout(r, Math.max(0, Math.min(20, killAt - Date.now())), "running")),
      ]);
      if (exitCode !== "running") throw new Error(`Berth exited (${String(exitCode)}) on its own:\n${proc.output()}`);
      if (!becameHealthy && Date.now() < killAt && (await this.healthy())) {
        becameHealthy = true;
        this.began();
      }
    }
    await this.kill();
    return { becameHealthy };
  }

  private async spawn(): Promise<RunningProcess> {
    if (this.proc) throw new Error("Berth is already running");
    if (this.port === 0) this.port = await freePort();
    this.proc = runBerth({
      PORT: String(this.port),
      BERTH_DATA_DIR: this.dataDir,
      BERTH_APP_URL: this.url,
      BERTH_CONTACT_EMAIL: "operator@berth.test",
      BERTH_LOG_LEVEL: "warn",
      ...this.env,
    });
    return this.proc;
  }

  private healthy(): Promise<boolean> {
    return fetch(`http://127.0.0.1:${this.port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
  }

  private began(): void {
    this.current = { healthyAt: Date.now(), endedAt: Infinity };
    this.lives.push(this.current);
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. Resolves once the process is gone. */
  async kill(): Promise<void> {
    await this.end("SIGKILL");
  }

  /** SIGTERM: the ordinary shutdown. */
  async stop(): Promise<void> {
    await this.end("SIGTERM");
  }

  /** Kills whatever runs and removes the data directory. */
  async destroy(): Promise<void> {
    await this.end("SIGKILL");
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    if (this.current) this.current.endedAt = Date.now();
    proc.child.kill(signal);
    await proc.exited;
    this.current = undefined;
    this.lastOutput = proc.output();
    this.proc = undefined;
  }
}
