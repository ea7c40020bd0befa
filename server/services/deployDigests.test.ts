import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeployResponse } from "../../common/deploys";
import { missingDigests } from "../db/repositories/deploys";
import { manifestOf, openDeploy, postTar, sha256Of, tarOf, type FileSpec } from "../test/deploys";
import { signedInClient } from "../test/factories";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { keptDeployDigests, stillMissing } from "./deployDigests";

const files = (label: string, count: number): FileSpec[] =>
  Array.from({ length: count }, (_, i) => ({ path: `${label}/${i}.html`, content: `<p>${label} ${i}</p>` }));

describe.each(DRIVERS)("a deploy's digests (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  async function opened(label: string, count: number) {
    const { client, user } = await signedInClient(server);
    const site = (await client.post("/api/sites", { name: label })).json<{ id: string }>();
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(files(label, count)) })).json<DeployResponse>();
    return { client, user, site, deploy };
  }

  it("gives each digest with its size and first path, and reads a manifest once while it is kept", async () => {
    const read = keptDeployDigests(10);
    const { deploy } = await opened("once", 3);
    const digests = await read(server.ctx.db, deploy.id);
    expect([...digests.entries()]).toEqual(
      files("once", 3)
        .map((f) => [sha256Of(f.content), { path: f.path, size: Buffer.byteLength(f.content) }] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    expect(await read(server.ctx.db, deploy.id)).toBe(digests);
  });

  it("lets the least recently read go first once it holds more entries than its budget", async () => {
    const read = keptDeployDigests(5);
    const [a, b, c] = [await opened("evict-a", 2), await opened("evict-b", 2), await opened("evict-c", 2)];
    const first = { a: await read(server.ctx.db, a.deploy.id), b: await read(server.ctx.db, b.deploy.id) };
    expect(await read(server.ctx.db, a.deploy.id)).toBe(first.a); // a is now the most recent
    await read(server.ctx.db, c.deploy.id); // 6 entries: b, the oldest, goes
    expect(await read(server.ctx.db, a.deploy.id)).toBe(first.a);
    expect(await read(server.ctx.db, b.deploy.id)).not.toBe(first.b);
  });

  it("names what is still missing as the repository does, before and after a tar brings part of it", async () => {
    const { client, user, site, deploy } = await opened("missing", 4);
    const digests = await keptDeployDigests(100)(server.ctx.db, deploy.id);
    const row = { id: deploy.id, user_id: user.id };
    expect(await stillMissing(server.ctx.db, row, digests)).toEqual(await missingDigests(server.ctx.db, deploy.id));
    const sent = files("missing", 4).slice(0, 3);
    const answer = (
      await postTar(client, site.id, deploy.id, tarOf(sent.map((f) => ({ name: sha256Of(f.content), content: f.content }))))
    ).json<DeployResponse>();
    const left = await stillMissing(server.ctx.db, row, digests);
    expect(left).toEqual([sha256Of(files("missing", 4)[3]!.content)]);
    expect(left).toEqual(await missingDigests(server.ctx.db, deploy.id));
    expect(answer.missing).toEqual(left);
  });
});
