// Crash safety (issue 8): the built server is SIGKILLed at random points during uploads, zip
// extractions, publishes, rollbacks, deletes, purges, picture changes and site creations, and
// started again. After every kill the database and the blob directory are checked directly
// (support/invariants.ts), the site touched must be in a state its operation allows
// (support/model.ts), every other site must be untouched, and after the restart every site is
// read through the edge byte for byte. Leftovers (blobs nothing refers to, temporary files) must
// be swept within the grace period. Runs on PGlite and on PostgreSQL.
//
// BERTH_RELIABILITY_SEED repeats a run's choices (operations, sizes, kill delays);
// BERTH_RELIABILITY_KILLS sets the kills per database (default 28).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type Db } from "../../server/db/client";
import { rowsOf } from "../../server/db/rows";
import type { SiteResponse } from "../../common/sites";
import { sweepIntervalMs } from "../../server/services/sweepOrphans";
import { ApiClient, getSiteFile, parse, type Answer } from "./support/client";
import { binaryFile, Contents, sha256, textFile, urlPathOf, zipOf } from "./support/contents";
import { CrashableBerth } from "./support/crashable";
import { checkInvariants, readDbState, readStoreState, type DbState, type Leftovers } from "./support/invariants";
import { mismatch, resync, unchanged, type SiteModel } from "./support/model";
import { KINDS, Operations, type Kind, type Operation } from "./support/operations";
import { OrphanWatch } from "./support/orphanWatch";
import { ADMIN_URL, createScratchDatabase, postgresReachable, scratchName, type ScratchDatabase } from "../../server/test/scratchDatabase";
import { createRandom, seedFromEnv } from "./support/random";

const KILLS = Number(process.env.BERTH_RELIABILITY_KILLS ?? 28);
/**
 * Longer than the slowest upload here (a zip of 600 entries on a busy machine): an upload's blobs
 * are unreferenced until it commits, and only their age keeps the sweeper off them.
 */
const GRACE_SECONDS = 10;
const SWEEP_INTERVAL_MS = sweepIntervalMs(GRACE_SECONDS * 1000);
const SEED = seedFromEnv();

/** First guesses of how long each operation takes (ms) on a 2-core machine; what is measured replaces them. */
const FIRST_GUESS: Record<Kind, number> = { upload: 300, zip: 2000, publish: 120, rollback: 120, delete: 90, purge: 1000, avatar: 150, create: 500 };

const postgresUp = await postgresReachable();
if (!postgresUp) console.warn(`crash safety: no PostgreSQL at ${ADMIN_URL}; only PGlite runs`);
console.log(`crash safety: seed ${SEED} (BERTH_RELIABILITY_SEED=${SEED} repeats it), ${KILLS} kills per database`);

const summaries: string[] = [];
afterAll(() => {
  if (summaries.length > 0) console.log(summaries.join("\n\n"));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe.each([
  { driver: "pglite" as const, index: 0 },
  { driver: "postgres" as const, index: 1 },
])("crash safety on $driver", ({ driver, index }) => {
  it.skipIf(driver === "postgres" && !postgresUp)(`keeps every invariant across ${KILLS} SIGKILLs`, async () => {
    const runStarted = Date.now();
    const schedule = createRandom((SEED + index * 7919) >>> 0);
    const bytes = createRandom((SEED + index * 7919 + 1) >>> 0);
    const sampler = createRandom((SEED + index * 7919 + 2) >>> 0);
    const contents = new Contents();
    const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-reliability-scratch-"));
    const violations: string[] = [];
    const fail = (cycle: number, message: string) => violations.push(`#${cycle}: ${message}`);

    let scratchDb: ScratchDatabase | undefined;
    let postgres: Database | undefined;
    const env: Record<string, string> = { BERTH_ORPHAN_GRACE_SECONDS: String(GRACE_SECONDS) };
    if (driver === "postgres") {
      scratchDb = await createScratchDatabase(scratchName("berth_reliability_crash"));
      env.DATABASE_URL = scratchDb.url;
      postgres = await openDatabase({ url: scratchDb.url });
    }
    const berth = new CrashableBerth(env);
    const api = new ApiClient(berth);
    const sites = new Map<string, SiteModel>();
    const orphans = new OrphanWatch(GRACE_SECONDS * 1000, SWEEP_INTERVAL_MS);
    const durations = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    /** How long each operation is thought to take: what an answer took, or more than a kill that came first. */
    const estimate = new Map<Kind, number>(KINDS.map((k) => [k, FIRST_GUESS[k]]));
    const tally = new Map<Kind, { kills: number; inFlight: number; answered: number; outcomes: Map<string, number> }>(
      KINDS.map((k) => [k, { kills: 0, inFlight: 0, answered: 0, outcomes: new Map() }]),
    );
    const timings = { startMs: [] as number[], checkMs: [] as number[], verifyMs: [] as number[] };
    let userId = "";
    let avatar: string | null = null;
    let plantedDeployment = "";
    let docsId = "";
    /** Deleted sites whose deletion date was moved back: any worker run may purge them. */
    const purgeDue = new Set<string>();
    const countOutcome = (kind: Kind, label: string) => {
      const outcomes = tally.get(kind)!.outcomes;
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
    };

    /** PGlite needs its files to itself: open it only while no Berth runs. */
    async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
      if (postgres) return fn(postgres.db);
      if (berth.running) throw new Error("PGlite is in use by the running server");
      const database = await openDatabase({ pgliteDir: path.join(berth.dataDir, "db") });
      try {
        return await fn(database.db);
      } finally {
        await database.close();
      }
    }

    async function start(): Promise<void> {
      const started = Date.now();
      await berth.start();
      timings.startMs.push(Date.now() - started);
    }

    /** The invariants, then the operation's site against its allowed states, then the model follows the database. */
    async function check(cycle: number, op: Operation | undefined, answered: boolean, db: Db): Promise<{ state: DbState; leftovers: Leftovers }> {
      const started = Date.now();
      const state = await readDbState(db);
      const store = await readStoreState(berth.dataDir);
      const { violations: broken, leftovers } = await checkInvariants(db, berth.dataDir, state, store);
      for (const v of broken) fail(cycle, v);
      for (const v of orphans.update(leftovers, berth.lives)) fail(cycle, `not swept: ${v}`);

      if (op?.kind === "create" && op.subdomain) {
        const row = [...state.sites.values()].find((s) => s.subdomain === op.subdomain);
        if (row) sites.set(row.id, { id: row.id, subdomain: row.subdomain, tree: new Map(), liveId: null, liveFiles: new Map(), deleted: false });
        else if (answered) fail(cycle, `${op.label} was answered but the site does not exist`);
        else countOutcome("create", "not created");
        if (row) op.siteId = row.id;
      }
      for (const model of [...sites.values()]) {
        const row = state.sites.get(model.id);
        if (op && op.siteId === model.id && op.kind !== "avatar") {
          const allowed = answered ? [op.after] : [op.before, op.after, ...op.intermediate];
          const found = allowed.find((s) => mismatch(model, s, row, state) === undefined);
          if (!found) {
            const why = allowed.map((s) => `${s.label}: ${mismatch(model, s, row, state)}`).join("; ");
            fail(cycle, `${op.label} (${answered ? "answered" : "killed"}) left ${model.subdomain} in no allowed state — ${why}`);
          } else {
            countOutcome(op.kind, found.label);
          }
        } else if (!(row === undefined && purgeDue.has(model.id))) {
          // A purge a kill interrupted is due again: the next worker run may finish it at any time.
          const why = mismatch(model, unchanged(model), row, state);
          if (why) fail(cycle, `${model.subdomain} changed though ${op?.label ?? "nothing"} did not touch it: ${why}`);
        }
        if (row) resync(model, row, state);
        else sites.delete(model.id);
        for (const sha of [...model.tree.values(), ...model.liveFiles.values()]) {
          if (!contents.get(sha)) fail(cycle, `${model.subdomain} holds a blob ${sha.slice(0, 12)} the test never uploaded`);
        }
      }
      const nowAvatar = state.avatars.get(userId) ?? null;
      if (op?.kind === "avatar" && op.avatar) {
        const allowed = answered ? [op.avatar.after] : [op.avatar.before, op.avatar.after];
        if (!allowed.includes(nowAvatar))
          fail(cycle, `${op.label} (${answered ? "answered" : "killed"}) left the picture at ${nowAvatar?.slice(0, 12)}`);
        else countOutcome("avatar", nowAvatar === op.avatar.after ? "after" : "before");
      } else if (nowAvatar !== avatar) fail(cycle, `the picture changed without a picture upload`);
      avatar = nowAvatar;
      timings.checkMs.push(Date.now() - started);
      return { state, leftovers };
    }

    /** Every site through the edge after a restart: the focus files in full, a sample of the rest. */
    async function verifyEdge(cycle: number, focus: Operation | undefined, answered: boolean): Promise<void> {
      const started = Date.now();
      for (const model of sites.values()) {
        const host = `${model.subdomain}.localhost:${berth.port}`;
        if (model.deleted || !model.liveId) {
          const answer = await getSiteFile(berth.port, host, "/");
          if (answer.status !== 404)
            fail(cycle, `${host}/ answers ${answer.status} for a site that is ${model.deleted ? "deleted" : "not published"}`);
          continue;
        }
        const paths = [...model.liveFiles.keys()];
        const chosen = new Set<string>();
        if (answered && focus?.siteId === model.id) for (const f of focus.files) chosen.add(f.path);
        for (let i = 0; i < 10 && paths.length > 0; i++) chosen.add(sampler.pick(paths));
        for (const filePath of chosen) {
          const sha = model.liveFiles.get(filePath);
          if (!sha) {
            fail(cycle, `${host}: an answered upload's ${filePath} is not in the live deployment`);
            continue;
          }
          const expected = contents.get(sha);
          if (!expected) continue;
          const encoding = sampler.pick([undefined, "gzip", "br"] as const);
          const answer = await getSiteFile(berth.port, host, urlPathOf(filePath), encoding);
          if (answer.status !== 200 || !answer.body.equals(expected)) {
            fail(
              cycle,
              `${host}${urlPathOf(filePath)} (${encoding ?? "identity"}) answered ${answer.status} with ${answer.body.length} bytes, not the ${expected.length} uploaded`,
            );
          }
        }
      }
      if (avatar) {
        const answer = await api.send("GET", "/api/me/avatar");
        if (answer.status !== 200 || !answer.body.equals(contents.get(avatar) ?? Buffer.alloc(0)))
          fail(cycle, `the picture answers ${answer.status} with other bytes`);
      }
      timings.verifyMs.push(Date.now() - started);
    }

    const ops = new Operations(api, contents, bytes, schedule, scratch);
    const active = () => [...sites.values()].filter((s) => !s.deleted && s.liveId);

    /** Picks the cycle's operation; falls back when the site set does not allow the one scheduled. */
    async function plan(kind: Kind, cycle: number, state: DbState): Promise<Operation> {
      const live = active();
      const deleted = [...sites.values()].filter((s) => s.deleted);
      const site = schedule.pick(live);
      // The first site holds the planted stuck deployment, whose fate the end of the run checks.
      const deletable = live.filter((s) => s.id !== docsId);
      switch (kind) {
        case "upload":
          return ops.upload(cycle, site);
        case "zip":
          return ops.zip(cycle, site);
        case "publish":
          return ops.publish(site);
        case "rollback":
          return ops.rollback(site, state) ?? ops.publish(site);
        case "delete":
          return deletable.length > 0 ? ops.delete(schedule.pick(deletable)) : ops.create(cycle);
        case "purge":
          if (deleted.length > 0) return ops.purge(schedule.pick(deleted));
          return deletable.length > 0 ? ops.delete(schedule.pick(deletable)) : ops.create(cycle);
        case "avatar":
          return ops.avatar(avatar);
        case "create":
          return ops.create(cycle);
      }
    }

    /** Sends the operation and SIGKILLs the server after `delayMs`; resolves to what came back before. */
    async function runUnderKill(
      op: Operation,
      delayMs: number,
    ): Promise<{ answer: Answer | undefined; inFlight: boolean; error?: unknown; ms?: number }> {
      if (op.kind === "purge") {
        // The purge is due 14 days after deletion: move the date back while no server runs, then
        // kill the next one around the time its worker's first run purges (the delay counts
        // from the spawn, so some kills land in the start-up itself).
        await berth.stop();
        await withDb((db) => db.execute(sql`update sites set deleted_at = now() - interval '15 days' where id = ${op.siteId!}`));
        purgeDue.add(op.siteId!);
        await berth.startAndKill(Math.round(0.6 * median(timings.startMs)) + delayMs);
        return { answer: undefined, inFlight: true };
      }
      const sent = performance.now();
      let settled = false;
      let ms: number | undefined;
      const outcome = op.send().then(
        (answer) => {
          settled = true;
          ms = performance.now() - sent;
          return { answer, error: undefined };
        },
        (error: unknown) => {
          settled = true;
          return { answer: undefined, error };
        },
      );
      await sleep(delayMs);
      const inFlight = !settled;
      await berth.kill();
      const { answer, error } = await outcome;
      if (!inFlight && !answer) return { answer, inFlight, error };
      return { answer, inFlight, ms };
    }

    try {
      // ── Set-up: a user, two sites, a planted leftover of each kind ────────────────────────
      let state: DbState | undefined;
      await start();
      await api.signUp(`crash-${driver}-${Date.now()}@example.com`, "crash safety password");
      for (const [name, files] of [
        ["Docs", [textFile(bytes, "index.html", "docs", 4000), ...ops.files(0, "docs/", 300)]],
        ["Landing", [textFile(bytes, "index.html", "landing", 2000), binaryFile(bytes, "hero.png", "hero", 300_000)]],
      ] as const) {
        const { subdomain } = parse<{ subdomain: string }>(await api.json("POST", "/api/subdomains/reserve"));
        for (const f of files) contents.remember(f.bytes);
        const zip = await zipOf(bytes, scratch, files);
        const created = await api.multipart("POST", "/api/sites", { name, subdomain }, { name: "site.zip", content: zip, type: "application/zip" });
        expect(created.status, created.body.toString()).toBe(201);
        const site = parse<SiteResponse>(created);
        docsId ||= site.id;
        sites.set(site.id, { id: site.id, subdomain: site.subdomain, tree: new Map(), liveId: null, liveFiles: new Map(), deleted: false });
      }
      await berth.stop();
      await withDb(async (db) => {
        userId = rowsOf<{ id: string }>(await db.execute(sql`select id from users`))[0]!.id;
        const initial = await readDbState(db);
        for (const model of sites.values()) resync(model, initial.sites.get(model.id)!, initial);
        // Leftovers a crash could have left long ago: a blob no row refers to, temporary files
        // of both kinds, and a deployment stuck in progress an hour ago.
        const stray = bytes.bytes(5000);
        const strayPath = path.join(berth.dataDir, "blobs", sha256(stray).slice(0, 2), sha256(stray).slice(2, 4));
        mkdirSync(strayPath, { recursive: true });
        mkdirSync(path.join(berth.dataDir, "blobs", "tmp"), { recursive: true });
        mkdirSync(path.join(berth.dataDir, "tmp"), { recursive: true });
        const hourAgo = new Date(Date.now() - 3600_000);
        for (const file of [
          path.join(strayPath, sha256(stray)),
          path.join(berth.dataDir, "blobs", "tmp", "stale-upload"),
          path.join(berth.dataDir, "tmp", "stale-zip"),
        ]) {
          writeFileSync(file, stray);
          utimesSync(file, hourAgo, hourAgo);
        }
        const docs = sites.get(docsId)!;
        plantedDeployment = rowsOf<{ id: string }>(
          await db.execute(sql`
            insert into deployments (site_id, version, status, note, created_at)
            values (${docs.id}, (select max(version) + 1 from deployments where site_id = ${docs.id}), 'in_progress', 'planted', now() - interval '1 hour')
            returning id`),
        )[0]!.id;
        state = (await check(0, undefined, false, db)).state;
      });
      expect(violations).toEqual([]);
      await start();
      await verifyEdge(0, undefined, false);

      // ── The kills ─────────────────────────────────────────────────────────────────────────
      const order: Kind[] = [];
      while (order.length < KILLS) {
        const block = [...KINDS];
        for (let i = block.length - 1; i > 0; i--) {
          const j = schedule.int(0, i);
          [block[i], block[j]] = [block[j]!, block[i]!];
        }
        order.push(...block);
      }

      for (let cycle = 1; cycle <= KILLS; cycle++) {
        const op = await plan(order[cycle - 1]!, cycle, state!);
        const seen = durations.get(op.kind)!;
        // Kill points spread over the whole operation and a little after it.
        const delay = Math.floor(schedule.next() * 1.25 * estimate.get(op.kind)!);
        const { answer, inFlight, error, ms } = await runUnderKill(op, delay);
        const answered = answer !== undefined && answer.status >= 200 && answer.status < 300;
        const counts = tally.get(op.kind)!;
        counts.kills += 1;
        if (inFlight) counts.inFlight += 1;
        if (answered) {
          counts.answered += 1;
          if (ms !== undefined) {
            seen.push(ms);
            estimate.set(op.kind, Math.round((estimate.get(op.kind)! + ms) / 2));
          }
        } else if (inFlight && op.kind !== "purge" && delay > 0.8 * estimate.get(op.kind)!) {
          // Killed late and still unanswered: it takes longer than thought.
          estimate.set(op.kind, Math.round(Math.max(delay, estimate.get(op.kind)!) * 1.2));
        }
        if (answer && !answered) fail(cycle, `${op.label} answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
        if (!answer && !inFlight && op.kind !== "purge") fail(cycle, `${op.label} failed before the kill: ${String(error)}`);

        state = (await withDb((db) => check(cycle, op, answered, db))).state;
        await start();
        await verifyEdge(cycle, op, answered);
        if (violations.length > 0) {
          console.error(
            `${driver}: after cycle ${cycle} (${op.label}, kill at ${delay} ms):\n${violations.join("\n")}\n--- server output ---\n${berth.output().slice(-4000)}`,
          );
          break;
        }
      }

      // ── The sweep: with the server up for the grace period, every leftover must go ────────
      const life = berth.lives.at(-1)!;
      await sleep(Math.max(0, orphans.deadline(life.healthyAt) - Date.now()));
      // A sweep of hundreds of leftovers on a busy machine may still be under way: give it a
      // moment more before judging (the check below fails whatever is left).
      for (let waited = 0; waited < 30_000 && (await orphans.stillThere(berth.dataDir)) > 0; waited += 500) await sleep(500);
      await berth.stop();
      const final = await withDb((db) => check(KILLS + 1, undefined, false, db));
      if (final.leftovers.blobs.size + final.leftovers.temps.size > 0) {
        fail(KILLS + 1, `left after the grace period: ${final.leftovers.blobs.size} blobs, ${[...final.leftovers.temps.keys()].join(", ")}`);
        // What the last life logged (its shutdown, above all) is the first clue to what left them.
        console.error(`${driver}: leftovers after the last stop\n--- server output ---\n${berth.output().slice(-4000)}`);
      }
      // Once failed it may have been pruned with the history; in progress it may not stay.
      const planted = final.state.deployments.get(plantedDeployment);
      if (planted && planted.status !== "failed") fail(KILLS + 1, `the deployment stuck in progress since an hour ago is still ${planted.status}`);
      const stuck = [...final.state.deployments.values()].filter((d) => d.status === "in_progress" || d.status === "pending");

      const lines = [...tally].map(
        ([kind, t]) =>
          `  ${kind.padEnd(8)} kills ${String(t.kills).padStart(2)}, in flight ${String(t.inFlight).padStart(2)}, answered ${String(t.answered).padStart(2)}; ` +
          `found ${[...t.outcomes].map(([k, v]) => `${k} ×${v}`).join(", ") || "-"}; took ${median(durations.get(kind)!).toFixed(0)} ms (median answered)`,
      );
      const total = [...tally.values()].reduce((sum, t) => sum + t.kills, 0);
      const inFlight = [...tally.values()].reduce((sum, t) => sum + t.inFlight, 0);
      summaries.push(
        [
          `crash safety on ${driver}: seed ${SEED}, ${total} SIGKILLs (${inFlight} with the operation in flight), ${((Date.now() - runStarted) / 1000).toFixed(0)} s`,
          ...lines,
          `  leftovers swept ${orphans.swept} (at most ${orphans.mostAtOnce} at once); deployments still in progress at the end: ${stuck.length}`,
          `  restart ${median(timings.startMs)} ms, check ${median(timings.checkMs)} ms, edge reads ${median(timings.verifyMs)} ms (medians)`,
        ].join("\n"),
      );
      expect(violations).toEqual([]);
      expect(total).toBe(KILLS);
      // The planted stray blob and two temporary files at least: the sweeper demonstrably ran.
      expect(orphans.swept).toBeGreaterThanOrEqual(3);
    } finally {
      await berth.destroy();
      await postgres?.close();
      await scratchDb?.drop();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
