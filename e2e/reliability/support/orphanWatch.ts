// Checks that leftovers of a crash (blobs no row refers to, temporary files) are swept within the
// grace period. A leftover seen at one check that is still there, unchanged, at a later one is a
// failure when some life of the server ran long enough for the sweeper to take it: from the
// moment it was old enough (its mtime plus the grace period), one sweep interval and some slack.
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Leftovers } from "./invariants";
import type { Uptime } from "./crashable";

interface Pending {
  kind: "blob" | "temp";
  mtimeMs: number;
  /** The first life of the server that began after it was seen. */
  fromLife: number;
}

export class OrphanWatch {
  private readonly pending = new Map<string, Pending>();
  /** Leftovers that went away while the server ran. */
  swept = 0;
  /** The most seen at one check. */
  mostAtOnce = 0;

  constructor(
    private readonly graceMs: number,
    private readonly sweepIntervalMs: number,
    /** A sweep takes its time too: listing the store and asking the database about each batch. */
    private readonly slackMs = 3000,
  ) {}

  get waiting(): number {
    return this.pending.size;
  }

  /** When the last pending leftover should be gone, given a server that runs from `healthyAt`. */
  deadline(healthyAt: number): number {
    let latest = healthyAt;
    for (const p of this.pending.values()) latest = Math.max(latest, p.mtimeMs + this.graceMs);
    return latest + this.sweepIntervalMs + this.slackMs;
  }

  /** How many pending leftovers are still on disk unchanged (readable while the server runs). */
  async stillThere(dataDir: string): Promise<number> {
    let count = 0;
    for (const [key, p] of this.pending) {
      const name = key.slice(5);
      const file = p.kind === "blob" ? path.join(dataDir, "blobs", name.slice(0, 2), name.slice(2, 4), name) : name;
      const info = await stat(file).catch(() => undefined);
      if (info?.mtimeMs === p.mtimeMs) count += 1;
    }
    return count;
  }

  /**
   * Call at every check with what is left over now and every life so far; returns the leftovers
   * that outlived a sweep they should not have.
   */
  update(now: Leftovers, lives: readonly Uptime[]): string[] {
    const failures: string[] = [];
    const current = new Map<string, { kind: "blob" | "temp"; mtimeMs: number }>();
    for (const [sha, mtimeMs] of now.blobs) current.set(`blob:${sha}`, { kind: "blob", mtimeMs });
    for (const [file, mtimeMs] of now.temps) current.set(`temp:${file}`, { kind: "temp", mtimeMs });
    this.mostAtOnce = Math.max(this.mostAtOnce, current.size);

    for (const [key, p] of this.pending) {
      const seen = current.get(key);
      // Gone, or written again (a new upload of the same bytes makes it fresh): nothing to blame.
      if (!seen) this.swept += 1;
      if (!seen || seen.mtimeMs !== p.mtimeMs) {
        this.pending.delete(key);
        continue;
      }
      const eligible = p.mtimeMs + this.graceMs;
      const missed = lives.slice(p.fromLife).find((life) => Math.max(eligible, life.healthyAt) + this.sweepIntervalMs + this.slackMs < life.endedAt);
      if (missed) {
        failures.push(
          `${p.kind} ${key.slice(5, 5 + 60)} (mtime ${new Date(p.mtimeMs).toISOString()}) outlived a server that ran ` +
            `${new Date(missed.healthyAt).toISOString()} – ${new Date(missed.endedAt).toISOString()}`,
        );
        this.pending.delete(key);
      }
    }
    for (const [key, seen] of current) {
      if (!this.pending.has(key)) this.pending.set(key, { ...seen, fromLife: lives.length });
    }
    return failures;
  }
}
