// The quota's stored figure (users.storage_used, user_blobs) against the union query it replaced
// (test/storageOracle.ts), after everything that writes the rows it counts: uploads, publishes,
// rollbacks, prunes, file and site deletion, purges, user deletion, changes Berth never makes
// but the triggers still follow, a seeded random sequence, and concurrent transactions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { buildUser, signedInClient, type BuiltUser } from "../../test/factories";
import { createSiteWith, htmlFile, postMultipart, zipOf } from "../../test/sites";
import { storageMismatches } from "../../test/storageOracle";
import { purgeDeletedSites } from "../../services/purgeDeletedSites";
import { deleteUser } from "../../services/admin/deleteUser";
import { listAllSiteFiles } from "../../test/rows";
import { storageUsedByUser } from "./usage";
import { FREE_PLAN } from "../../plans/builtIn";
import type { SiteResponse } from "../../../common/sites";

const SHARED = "body { color: teal }";
const len = (...texts: string[]) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
const DAY = 24 * 60 * 60 * 1000;

describe.each(DRIVERS)("stored storage figure (%s)", (driver) => {
  let server: TestServer;
  let db: Executor;
  beforeAll(async () => {
    server = await getTestServer(driver);
    db = server.ctx.db;
  });
  afterAll(() => server.close());

  const used = (userId: string) => storageUsedByUser(db, userId);
  const expectExact = async () => expect(await storageMismatches(db)).toEqual([]);
  const upload = async (client: TestClient, site: SiteResponse, name: string, content: string) =>
    expect(
      (await postMultipart(client, `/api/sites/${site.id}/files`, {}, { name, content, type: name.endsWith(".css") ? "text/css" : "text/html" }))
        .statusCode,
    ).toBe(201);
  const deployments = async (client: TestClient, site: SiteResponse) =>
    (await client.get(`/api/sites/${site.id}/deployments`)).json().deployments as Array<{ id: string; version: number; status: string }>;
  const zipSite = async (client: TestClient, entries: Array<{ name: string; data: string }>) =>
    createSiteWith(client, { name: "site.zip", content: await zipOf(entries), type: "application/zip" });

  it("counts a blob once per user, however many sites, deployments and users hold it", async () => {
    const a = await signedInClient(server);
    const b = await signedInClient(server);
    await zipSite(a.client, [
      { name: "index.html", data: "<p>one</p>" },
      { name: "shared.css", data: SHARED },
    ]);
    expect(await used(a.user.id)).toBe(len("<p>one</p>", SHARED));
    const second = await zipSite(a.client, [
      { name: "index.html", data: "<p>two</p>" },
      { name: "css/shared.css", data: SHARED },
    ]);
    expect(await used(a.user.id)).toBe(len("<p>one</p>", "<p>two</p>", SHARED));
    await upload(a.client, second, "extra.css", "extra bytes");
    expect(await deployments(a.client, second)).toHaveLength(2);
    expect(await used(a.user.id)).toBe(len("<p>one</p>", "<p>two</p>", SHARED, "extra bytes"));
    await zipSite(b.client, [{ name: "index.html", data: SHARED }]);
    expect(await used(b.user.id)).toBe(len(SHARED));
    expect(await used(a.user.id)).toBe(len("<p>one</p>", "<p>two</p>", SHARED, "extra bytes"));
    await expectExact();
  });

  it("follows publishes, file deletion and rollback: kept deployments still count", async () => {
    const { client, user } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>v1</h1>"));
    await upload(client, site, "index.html", "<h1>v2</h1>");
    await upload(client, site, "notes.css", "notes");
    expect(await used(user.id)).toBe(len("<h1>v1</h1>", "<h1>v2</h1>", "notes"));
    const notes = (await listAllSiteFiles(db, site.id)).find((f) => f.file_path === "notes.css")!;
    expect((await client.delete(`/api/sites/${site.id}/files/${notes.id}`)).statusCode).toBe(200);
    expect(await used(user.id)).toBe(len("<h1>v1</h1>", "<h1>v2</h1>", "notes"));
    await expectExact();
    const first = (await deployments(client, site)).find((d) => d.version === 1)!;
    expect((await client.post(`/api/sites/${site.id}/deployments/${first.id}/rollback`, {})).statusCode).toBe(200);
    expect((await client.post(`/api/sites/${site.id}/deployments`, {})).statusCode).toBe(201);
    await expectExact();
    expect(await used(user.id)).toBe(len("<h1>v1</h1>", "<h1>v2</h1>", "notes"));
  });

  it("lets go of what only pruned deployments held", async () => {
    const { client, user } = await signedInClient(server);
    const kept = FREE_PLAN.deploymentsKept;
    const page = (n: number) => `<h1>version ${String(n).padStart(2, "0")}</h1>`;
    const site = await createSiteWith(client, htmlFile(page(1)));
    for (let n = 2; n <= kept + 2; n++) await upload(client, site, "index.html", page(n));
    expect(await deployments(client, site)).toHaveLength(kept);
    expect(await used(user.id)).toBe(kept * len(page(1)));
    await expectExact();
  });

  it("keeps a deleted site's blobs until the purge, then only what other sites hold", async () => {
    const { client, user } = await signedInClient(server);
    await zipSite(client, [
      { name: "index.html", data: "<p>stays</p>" },
      { name: "s.css", data: SHARED },
    ]);
    const doomed = await zipSite(client, [
      { name: "index.html", data: "<p>goes</p>" },
      { name: "s.css", data: SHARED },
    ]);
    await upload(client, doomed, "more.css", "more");
    expect((await client.delete(`/api/sites/${doomed.id}`)).statusCode).toBe(200);
    expect(await used(user.id)).toBe(len("<p>stays</p>", "<p>goes</p>", "more", SHARED));
    expect(await purgeDeletedSites(server.ctx, new Date(Date.now() + 15 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await used(user.id)).toBe(len("<p>stays</p>", SHARED));
    await expectExact();
  });

  it("drops a deleted user's counts, through the admin service or a bare delete, and no one else's", async () => {
    const other = await signedInClient(server);
    await zipSite(other.client, [{ name: "index.html", data: SHARED }]);
    for (const how of ["service", "cascade"] as const) {
      const { client, user } = await signedInClient(server);
      const site = await zipSite(client, [
        { name: "index.html", data: SHARED },
        { name: "a.txt", data: `only ${how}` },
      ]);
      await zipSite(client, [{ name: "index.html", data: SHARED }]);
      await upload(client, site, "b.css", `more ${how}`);
      expect(await used(user.id)).toBe(len(SHARED, `only ${how}`, `more ${how}`));
      if (how === "service") await deleteUser(server.ctx, undefined, user.id);
      else await db.execute(sql`delete from users where id = ${user.id}`);
      expect(rowsOf(await db.execute(sql`select 1 from user_blobs where user_id = ${user.id}`))).toEqual([]);
      expect(await used(other.user.id)).toBe(len(SHARED));
      await expectExact();
    }
  });

  it("follows row changes Berth never makes: new blobs in place, rows and sites changing hands", async () => {
    const a = await signedInClient(server);
    const b = await signedInClient(server);
    const siteA = await zipSite(a.client, [
      { name: "index.html", data: "<p>a</p>" },
      { name: "x.css", data: SHARED },
    ]);
    const siteB = await zipSite(b.client, [{ name: "index.html", data: "<p>b</p>" }]);
    const [depA] = await deployments(a.client, siteA);
    const [depB] = await deployments(b.client, siteB);
    const steps = [
      sql`update site_files set sha256 = 'feed', file_size = 4 where site_id = ${siteA.id} and file_path = 'index.html'`,
      sql`update site_files set file_size = file_size, updated_at = now() where site_id = ${siteA.id}`,
      sql`update site_files set site_id = ${siteB.id}, file_path = 'moved.css' where site_id = ${siteA.id} and file_path = 'x.css'`,
      sql`update deployment_files set sha256 = 'beef', size = 7 where deployment_id = ${depA!.id} and path = 'x.css'`,
      sql`update deployment_files set deployment_id = ${depB!.id}, path = 'moved.html' where deployment_id = ${depA!.id} and path = 'index.html'`,
      sql`update deployments set site_id = ${siteA.id}, version = 99 where id = ${depB!.id}`,
      sql`update sites set user_id = ${a.user.id} where id = ${siteB.id}`,
      sql`update sites set user_id = ${b.user.id} where user_id = ${a.user.id}`,
      sql`delete from deployment_files where deployment_id = ${depA!.id}`,
      sql`delete from site_files where site_id = ${siteB.id}`,
      sql`delete from sites where user_id in (${a.user.id}, ${b.user.id})`,
    ];
    for (const step of steps) {
      await db.execute(step);
      await expectExact();
    }
    expect([await used(a.user.id), await used(b.user.id)]).toEqual([0, 0]);
  });

  it("stays exact through a seeded random sequence of uploads, deletions, rollbacks, purges and user deletions", async () => {
    let seed = 0x5eed_8;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const contents = ["<p>a</p>", "<p>bb</p>", SHARED, "<p>dddd</p>", "x".repeat(40), "<p>f</p>"] as const;
    const names = ["index.html", "about.html", "a.css"] as const;
    type Owner = { client: TestClient; user: BuiltUser; sites: SiteResponse[] };
    const owners: Owner[] = [];
    for (let i = 0; i < 2; i++) owners.push({ ...(await signedInClient(server)), sites: [] });
    const steps: Record<string, (owner: Owner) => Promise<unknown>> = {
      create: async (o) => {
        const entries = [...new Set([pick(names), pick(names)])].map((name) => ({ name, data: pick(contents) }));
        o.sites.push(await zipSite(o.client, entries));
      },
      upload: async (o) => o.sites.length > 0 && upload(o.client, pick(o.sites), pick(names), pick(contents)),
      uploadZip: async (o) => {
        if (o.sites.length === 0) return;
        const zip = await zipOf([
          { name: "z/one.txt", data: pick(contents) },
          { name: "z/two.txt", data: pick(contents) },
        ]);
        await postMultipart(
          o.client,
          `/api/sites/${pick(o.sites).id}/files`,
          { extract: "true" },
          { name: "z.zip", content: zip, type: "application/zip" },
        );
      },
      deleteFile: async (o) => {
        if (o.sites.length === 0) return;
        const site = pick(o.sites);
        const files = await listAllSiteFiles(db, site.id);
        if (files.length > 0) await o.client.delete(`/api/sites/${site.id}/files/${pick(files).id}`);
      },
      rollback: async (o) => {
        if (o.sites.length === 0) return;
        const site = pick(o.sites);
        const done = (await deployments(o.client, site)).filter((d) => d.status === "success");
        if (done.length > 0) await o.client.post(`/api/sites/${site.id}/deployments/${pick(done).id}/rollback`, {});
      },
      deploy: async (o) => o.sites.length > 0 && o.client.post(`/api/sites/${pick(o.sites).id}/deployments`, {}),
      deleteSite: async (o) => {
        if (o.sites.length === 0) return;
        const site = pick(o.sites);
        o.sites = o.sites.filter((s) => s !== site);
        expect((await o.client.delete(`/api/sites/${site.id}`)).statusCode).toBe(200);
      },
      purge: () => purgeDeletedSites(server.ctx, new Date(Date.now() + 15 * DAY)),
      deleteUser: async (o) => {
        await deleteUser(server.ctx, undefined, o.user.id);
        Object.assign(o, await signedInClient(server), { sites: [] });
      },
    };
    const weighted = [
      ...["create", "create", "upload", "upload", "upload", "upload", "uploadZip", "uploadZip", "deleteFile", "deleteFile", "deleteFile"],
      ...["rollback", "rollback", "rollback", "deploy", "deleteSite", "purge", "deleteUser"],
    ];
    const done: string[] = [];
    for (let i = 0; i < 60; i++) {
      const step = pick(weighted);
      await steps[step]!(pick(owners));
      done.push(step);
      expect({ after: done.join(" "), mismatches: await storageMismatches(db) }).toEqual({ after: done.join(" "), mismatches: [] });
    }
  }, 120_000);

  // PGlite runs one transaction at a time, so only a server can interleave them.
  describe.runIf(driver === "postgres")("concurrent transactions of one user", () => {
    async function userWithSites(count: number) {
      const user = await buildUser(server);
      const sites: string[] = [];
      for (let i = 0; i < count; i++) {
        const id = randomUUID();
        await db.execute(sql`insert into sites (id, name, user_id, subdomain) values (${id}, 's', ${user.id}, ${`c${id.slice(0, 8)}`})`);
        sites.push(id);
      }
      return { user, sites };
    }
    const addFile = (tx: Executor, siteId: string, sha: string, size: number) =>
      tx.execute(sql`insert into site_files (site_id, filename, file_path, file_size, sha256) values (${siteId}, ${sha}, ${sha}, ${size}, ${sha})`);
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };

    it("counts the same new blob committed by two transactions at once only once", async () => {
      const { user, sites } = await userWithSites(2);
      const sha = `same-${randomUUID()}`;
      const first = gate();
      const release = gate();
      const one = server.ctx.db.transaction(async (tx) => {
        await addFile(tx, sites[0]!, sha, 100);
        first.open();
        await release.opened;
      });
      await first.opened;
      const two = server.ctx.db.transaction((tx) => addFile(tx, sites[1]!, sha, 100));
      await new Promise((resolve) => setTimeout(resolve, 200));
      release.open();
      await Promise.all([one, two]);
      expect(await used(user.id)).toBe(100);
      expect(rowsOf(await db.execute(sql`select sha256, size::int as size from user_blobs where user_id = ${user.id}`))).toEqual([
        { sha256: sha, size: 100 },
      ]);
      await expectExact();
    });

    // A blob's row is present exactly when a reference is: a removal looks for other references
    // under the user's lock, so it sees an addition committed before it, and an addition after it
    // writes the row again.
    it.each(["the addition", "the removal"])(
      "keeps a blob whose last reference goes while another is added, when %s holds the lock first",
      async (first) => {
        const { user, sites } = await userWithSites(2);
        const sha = `race-${randomUUID()}`;
        await addFile(db, sites[0]!, sha, 70);
        const holding = gate();
        const release = gate();
        const remove = (tx: Executor) => tx.execute(sql`delete from site_files where site_id = ${sites[0]!} and sha256 = ${sha}`);
        const add = (tx: Executor) => addFile(tx, sites[1]!, sha, 70);
        const [firstStep, secondStep] = first === "the addition" ? [add, remove] : [remove, add];
        const one = server.ctx.db.transaction(async (tx) => {
          await firstStep(tx);
          holding.open();
          await release.opened;
        });
        await holding.opened;
        const two = server.ctx.db.transaction((tx) => secondStep(tx));
        await new Promise((resolve) => setTimeout(resolve, 200));
        release.open();
        await Promise.all([one, two]);
        expect(await used(user.id)).toBe(70);
        expect(rowsOf(await db.execute(sql`select sha256 from user_blobs where user_id = ${user.id}`))).toEqual([{ sha256: sha }]);
        await expectExact();
      },
    );

    it("never deadlocks two transactions that add shared blobs in opposite orders", async () => {
      const { user, sites } = await userWithSites(2);
      const [x, y] = [`x-${randomUUID()}`, `y-${randomUUID()}`];
      const firstDone = gate();
      const secondStarted = gate();
      const one = server.ctx.db.transaction(async (tx) => {
        await addFile(tx, sites[0]!, x, 10);
        firstDone.open();
        await secondStarted.opened;
        await addFile(tx, sites[0]!, y, 20);
      });
      await firstDone.opened;
      const two = server.ctx.db.transaction(async (tx) => {
        const waiting = addFile(tx, sites[1]!, y, 20);
        setTimeout(() => secondStarted.open(), 200);
        await waiting;
        await addFile(tx, sites[1]!, x, 10);
      });
      await Promise.all([one, two]);
      expect(await used(user.id)).toBe(30);
      await expectExact();
    });
  });
});
