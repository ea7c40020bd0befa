import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeployResponse } from "../../common/deploys";
import { manifestDigests } from "../db/repositories/deploys";
import { manifestOf, openDeploy, postTar, sha256Of, tarOf, type FileSpec } from "../test/deploys";
import { signedInClient } from "../test/factories";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { digestsOfManifest, KeptDeployDigests, stillMissing } from "./deployDigests";
import { normaliseManifest } from "./deployManifest";

const files = (label: string, count: number): FileSpec[] =>
  Array.from({ length: count }, (_, i) => ({ path: `${label}/${i}.html`, content: `<p>${label} ${i}</p>` }));

describe.each(DRIVERS)("a deploy's digests (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  async function opened(label: string, specs: FileSpec[]) {
    const { client, user } = await signedInClient(server);
    const site = (await client.post("/api/sites", { name: label })).json<{ id: string }>();
    const deploy = (await openDeploy(client, site.id, { files: manifestOf(specs) })).json<DeployResponse>();
    return { client, user, site, deploy };
  }

  it("works out from the request what a read of the stored manifest gives: digest order, each digest's first path", async () => {
    // The same bytes at several paths whose order depends on the collation (case, punctuation,
    // digits), so a database sorting by its locale would pick another first path.
    const specs: FileSpec[] = [
      { path: "b.html", content: "same" },
      { path: "B-2.html", content: "same" },
      { path: "a_1/x.html", content: "same" },
      { path: "a-1/x.html", content: "other" },
      { path: "A/x.html", content: "other" },
      ...files("more", 5),
    ];
    const { deploy } = await opened("order", specs);
    const stored = await manifestDigests(server.ctx.db, deploy.id);
    const worked = digestsOfManifest(normaliseManifest(manifestOf(specs)));
    expect([...worked]).toEqual([...stored]);
    expect(worked.get(sha256Of("same"))!.path).toBe("B-2.html");
    expect(worked.get(sha256Of("other"))!.path).toBe("A/x.html");
  });

  it("reads a manifest once while it is kept", async () => {
    const kept = new KeptDeployDigests(10);
    const { deploy } = await opened("once", files("once", 3));
    const digests = await kept.read(server.ctx.db, deploy.id);
    expect([...digests.keys()]).toEqual(
      files("once", 3)
        .map((f) => sha256Of(f.content))
        .sort(),
    );
    expect(await kept.read(server.ctx.db, deploy.id)).toBe(digests);
  });

  it("lets the least recently used go first once it holds more entries than its budget", async () => {
    const kept = new KeptDeployDigests(5);
    const [a, b, c] = [await opened("evict-a", files("a", 2)), await opened("evict-b", files("b", 2)), await opened("evict-c", files("c", 2))];
    const first = { a: await kept.read(server.ctx.db, a.deploy.id), b: await kept.read(server.ctx.db, b.deploy.id) };
    expect(await kept.read(server.ctx.db, a.deploy.id)).toBe(first.a); // a is now the most recent
    const remembered = kept.remember(c.deploy.id, await manifestDigests(server.ctx.db, c.deploy.id)); // 6 entries: b goes
    expect(await kept.read(server.ctx.db, c.deploy.id)).toBe(remembered);
    expect(await kept.read(server.ctx.db, a.deploy.id)).toBe(first.a);
    expect(await kept.read(server.ctx.db, b.deploy.id)).not.toBe(first.b);
  });

  it("names what is still missing, before and after a tar brings part of it, as the deploy's answers do", async () => {
    const specs = files("missing", 4);
    const { client, user, site, deploy } = await opened("missing", specs);
    const digests = await new KeptDeployDigests(100).read(server.ctx.db, deploy.id);
    const row = { id: deploy.id, user_id: user.id };
    expect(await stillMissing(server.ctx.db, row, digests)).toEqual(deploy.missing);
    expect(deploy.missing).toEqual(specs.map((f) => sha256Of(f.content)).sort());
    const sent = specs.slice(0, 3);
    const answer = (
      await postTar(client, site.id, deploy.id, tarOf(sent.map((f) => ({ name: sha256Of(f.content), content: f.content }))))
    ).json<DeployResponse>();
    const left = await stillMissing(server.ctx.db, row, digests);
    expect(left).toEqual([sha256Of(specs[3]!.content)]);
    expect(answer.missing).toEqual(left);
    expect((await client.get(`/api/sites/${site.id}/deploys/${deploy.id}`)).json<DeployResponse>().missing).toEqual(left);
  });
});
