// A full disk: the data directory's blob store on an 8 MB tmpfs, filled up. (The embedded
// database stays on the real disk: a new PGlite database alone is larger than 8 MB.) A deploy
// then fails with a clear 507 that says the server is out of space and leaves nothing behind (no
// blob, whole or partial, no new deployment, the live site unchanged and served); once space is
// freed the same deploy works. Mounting needs root: without it, or without tmpfs, it is skipped.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithHost, startBerth, type Berth } from "./support/berth";
import { pageForm, signUpByApi } from "./support/apiAccount";
import { writeZip } from "../server/test/uploads/zipBuilder";

/** Why the test cannot run here, or undefined once the tmpfs is mounted on `dir`. */
function mountTmpfs(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return "mounting a small filesystem needs root";
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", dir], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-e2e-full-"));
const blobDir = path.join(dataDir, "blobs");
mkdirSync(blobDir, { mode: 0o700 });
const cannotMount = mountTmpfs(blobDir);
if (cannotMount) console.warn(`disk-full test skipped: ${cannotMount}`);
const filler = path.join(blobDir, "filler");

describe.skipIf(cannotMount !== undefined)("a full disk", () => {
  let berth: Berth | undefined;
  let api: (method: string, p: string, body?: FormData) => Promise<Response>;
  let site: { id: string; host: string };

  beforeAll(async () => {
    const node = await startBerth({ BERTH_LOG_LEVEL: "warn" }, { dataDir });
    berth = node;
    const cookie = await signUpByApi(node, `full-${Date.now()}@example.com`, "disk full password");
    api = (method, p, body) =>
      fetch(`http://127.0.0.1:${node.port}${p}`, { method, headers: { cookie, origin: node.url }, ...(body ? { body } : {}) });
    const reserve = await fetch(`http://127.0.0.1:${node.port}/api/subdomains/reserve`, {
      method: "POST",
      headers: { cookie, origin: node.url, "content-type": "application/json" },
      body: "{}",
    });
    const { subdomain } = (await reserve.json()) as { subdomain: string };
    const created = await api("POST", "/api/sites", pageForm("<h1>live version</h1>", { name: "Full", subdomain }));
    expect(created.status).toBe(201);
    const answer = (await created.json()) as { id: string; url: string };
    site = { id: answer.id, host: new URL(answer.url).host };
  });

  afterAll(async () => {
    berth?.process.child.kill("SIGTERM");
    await berth?.process.exited;
    if (!cannotMount) execFileSync("umount", [blobDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const deployments = async () =>
    ((await (await api("GET", `/api/sites/${site.id}/deployments`)).json()) as { deployments: unknown[] }).deployments.length;

  /** Fills the disk, sends `upload`, checks the refusal and that nothing changed, frees the space, sends it again. */
  async function refusedThenAccepted(name: string, upload: () => FormData, liveText: string, newText: string): Promise<void> {
    const deploymentsBefore = await deployments();
    // The compressed forms of the last deploy's files are written in the background: once done.
    const blobsBefore = await settled(blobDir);
    fill(filler);

    const refused = await api("POST", `/api/sites/${site.id}/files`, upload());
    const body = (await refused.json()) as { error: { code: string; message: string; detail: string } };
    console.log(`disk full, ${name}: answered ${refused.status} ${JSON.stringify(body)}`);
    expect(refused.status).toBe(507);
    expect(body.error).toEqual({
      code: "storage_full",
      message: "The server is out of storage space",
      detail: "Nothing was changed. Try again later, or tell the server's operator.",
    });
    // Nothing half-done: no blob or temp file left, no new deployment, the live site as it was.
    expect(filesUnder(blobDir).sort()).toEqual([...blobsBefore, "filler"].sort());
    expect(await deployments()).toBe(deploymentsBefore);
    const live = await getWithHost(berth!.port, site.host);
    expect(live.status).toBe(200);
    expect(live.body).toContain(liveText);

    rmSync(filler);
    const accepted = await api("POST", `/api/sites/${site.id}/files`, upload());
    expect(accepted.status, await accepted.clone().text()).toBe(201);
    expect(await deployments()).toBe(deploymentsBefore + 1);
    expect((await getWithHost(berth!.port, site.host)).body).toContain(newText);
  }

  it("refuses a page that does not fit with 507, changes nothing, and takes it once space is freed", async () => {
    const big = `<h1>new version</h1>${"<p>does not fit</p>\n".repeat(55_000)}`;
    await refusedThenAccepted("1 MB page", () => pageForm(big), "live version", "new version");
  });

  it("removes the blobs a zip had already written when a later file does not fit", async () => {
    // Small compressed, 6 × 100 KB unpacked: the first files fit in what is left, the rest do not.
    const zipFile = path.join(dataDir, "site.zip");
    await writeZip(zipFile, [
      { name: "index.html", data: "<h1>zip version</h1>", method: "deflate" },
      ...Array.from({ length: 6 }, (_, i) => ({
        name: `part-${i}.html`,
        data: `<p>part ${i}</p>\n`.repeat((100 * 1024) / 14),
        method: "deflate" as const,
      })),
    ]);
    const zip = readFileSync(zipFile);
    const form = () => {
      const f = new FormData();
      f.append("extract", "true");
      f.append("file", new Blob([zip], { type: "application/zip" }), "site.zip");
      return f;
    };
    await refusedThenAccepted("zip of 600 KB", form, "new version", "zip version");
  });
});

/** The files under `dir` once they have not changed for a second. */
async function settled(dir: string): Promise<string[]> {
  let last = filesUnder(dir).sort();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = filesUnder(dir).sort();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => statSync(path.join(dir, name)).isFile());
}

/** Writes `file` until the filesystem has no room left, then frees 256 KB: small files still fit, 1 MB does not. */
function fill(file: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  for (;;) {
    try {
      writeFileSync(file, chunk, { flag: "a" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      break;
    }
  }
  truncateSync(file, Math.max(0, statSync(file).size - 256 * 1024));
}
