// The data directory belongs to Berth's account alone. Under umask 022 (the usual one, which makes
// new files readable by everyone) a real server creates its data directory, a site is uploaded as
// a zip and a password-reset mail lands in the outbox; then every entry must be owner-only, and
// the `nobody` account must get EACCES reading and writing every one of them. A directory left
// open by an older Berth is tightened at start, and the log says so once.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getWithHost, startBerth, type Berth } from "../support/berth";
import { waitFor } from "../support/pages";
import { writeZip } from "../../server/test/uploads/zipBuilder";
import { attemptsAsNobody, canSwitchUser, modeCounts, openToOthers, walk, type Entry } from "./support/otherAccount";

const UMASK = 0o022;
const PASSWORD = "private data dir password";
const TIGHTENED = /open to other accounts on this machine and (?:is|are) now owner-only/;

if (!canSwitchUser()) console.warn("private data directory: not root, so the tries as nobody are skipped; modes are still checked");

/** A signed-in user's API calls, as a browser on the dashboard makes them. */
async function signUp(berth: Berth, email: string): Promise<(method: string, p: string, body?: FormData | object) => Promise<Response>> {
  const call = (cookie: string) => (method: string, p: string, body?: FormData | object) => {
    const form = body instanceof FormData;
    return fetch(`http://127.0.0.1:${berth.port}${p}`, {
      method,
      headers: { origin: berth.url, ...(cookie ? { cookie } : {}), ...(body && !form ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: form ? body : JSON.stringify(body) } : {}),
    });
  };
  expect((await call("")("POST", "/api/auth/sign-up/email", { email, password: PASSWORD, name: "Private" })).ok).toBe(true);
  await fetch(await waitFor(() => berth.outbox.lastLink(email, /Confirm your e-mail/)), { redirect: "manual" });
  const signedIn = await call("")("POST", "/api/auth/sign-in/email", { email, password: PASSWORD });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("berth.session_token="))
    ?.split(";")[0];
  if (!cookie) throw new Error(`sign-in: ${signedIn.status} ${await signedIn.text()}`);
  return call(cookie);
}

/** A site from a zip (it waits in the data directory's tmp/ while it is unpacked), then a reset mail. */
async function useLikeAnOwner(berth: Berth, scratch: string): Promise<void> {
  const email = `private-${Date.now()}@example.com`;
  const api = await signUp(berth, email);
  const zipFile = path.join(scratch, "site.zip");
  await writeZip(zipFile, [
    { name: "index.html", data: Buffer.from("<h1>Only for the owner's eyes on disk</h1>") },
    { name: "css/site.css", data: Buffer.from("h1 { color: teal }") },
  ]);
  const { subdomain } = (await (await api("POST", "/api/subdomains/reserve", {})).json()) as { subdomain: string };
  const form = new FormData();
  form.append("name", "Private on disk");
  form.append("subdomain", subdomain);
  form.append("file", new Blob([readFileSync(zipFile)], { type: "application/zip" }), "site.zip");
  const created = await api("POST", "/api/sites", form);
  expect(created.status).toBe(201);
  const site = (await created.json()) as { url: string };
  expect((await getWithHost(berth.port, new URL(site.url).host)).body).toContain("Only for the owner's eyes");

  const reset = await api("POST", "/api/auth/request-password-reset", { email, redirectTo: "/auth/update-password" });
  expect(reset.status).toBe(200);
  await waitFor(() => berth.outbox.lastLink(email, /Reset your Berth password/));
}

/** A directory another account can reach (so that only the data directory's own modes stop it). */
function reachableScratch(): string {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-private-"));
  chmodSync(scratch, 0o755);
  return scratch;
}

function expectPrivate(dataDir: string, entries: readonly Entry[]): void {
  expect(openToOthers(dataDir, entries)).toEqual([]);
  if (!canSwitchUser()) return;
  const attempts = attemptsAsNobody(entries);
  expect(attempts).toHaveLength(entries.filter((e) => e.kind !== "other").length);
  const notRefused = attempts.filter((a) => a.read !== "EACCES" || a.write !== "EACCES");
  expect(notRefused.map((a) => `${path.relative(dataDir, a.path) || "."}: read ${a.read}, write ${a.write}`)).toEqual([]);
}

const logLines = (berth: Berth) =>
  berth.process
    .output()
    .split("\n")
    .filter((line) => TIGHTENED.test(line));

describe("the data directory, under umask 022", () => {
  let scratch: string;
  let berth: Berth | undefined;
  afterEach(async () => {
    await berth?.stop();
    berth = undefined;
    rmSync(scratch, { recursive: true, force: true });
  });

  it("is created owner-only with everything in it, and nobody can read or write any of it", async () => {
    scratch = reachableScratch();
    const dataDir = path.join(scratch, "data");
    berth = await startBerth({}, { dataDir, umask: UMASK });
    await useLikeAnOwner(berth, scratch);

    const entries = walk(dataDir);
    console.log(`private data directory: modes after a start, an upload and a reset mail under umask 022: ${modeCounts(entries)}`);
    const names = entries.map((e) => path.relative(dataDir, e.path));
    // What the review found open: the database, blobs, the outbox's reset link, the directories.
    expect(names.filter((n) => n.startsWith(`db${path.sep}`)).length).toBeGreaterThan(900);
    expect(names.filter((n) => /^blobs\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(n)).length).toBeGreaterThanOrEqual(2);
    expect(names.filter((n) => n.startsWith(`outbox${path.sep}`) && n.endsWith(".eml")).length).toBe(2);
    expect(names).toContain("tmp");
    expect(names).toContain("secret");
    expect(names).toContain("berth.lock");
    expectPrivate(dataDir, entries);
    // Nothing needed tightening, so nothing was said.
    expect(logLines(berth)).toEqual([]);

    // Started again on what that run left (the database rewrites files at every start): still
    // nothing to tighten, nothing said, nothing open.
    await berth.stop({ keepDataDir: true });
    berth = await startBerth({}, { dataDir, umask: UMASK });
    expect(logLines(berth)).toEqual([]);
    expectPrivate(dataDir, walk(dataDir));
  });

  it("is tightened at start when an older Berth left it open, and the log says so once, with the count", async () => {
    scratch = reachableScratch();
    const dataDir = path.join(scratch, "data");
    berth = await startBerth({}, { dataDir, umask: UMASK });
    await useLikeAnOwner(berth, scratch);
    await berth.stop({ keepDataDir: true });
    berth = undefined;

    // As Berth left it before: directories 0755, database files 0666, everything else 0644.
    const loose = walk(dataDir);
    for (const entry of loose) {
      if (entry.kind === "other") continue;
      const relative = path.relative(dataDir, entry.path);
      chmodSync(entry.path, entry.kind === "directory" ? 0o755 : relative.startsWith(`db${path.sep}`) ? 0o666 : 0o644);
    }
    const opened = loose.filter((e) => e.kind !== "other").length;
    const before = walk(dataDir);
    expect(openToOthers(dataDir, before)).toHaveLength(opened);
    if (canSwitchUser()) {
      // The probe itself works: nobody really could read the outbox and write the database.
      const before = attemptsAsNobody(walk(dataDir));
      expect(before.find((a) => a.path.endsWith(".eml"))?.read).toBe("ok");
      expect(before.find((a) => a.path.endsWith(`${path.sep}PG_VERSION`))?.write).toBe("ok");
    }

    berth = await startBerth({}, { dataDir, umask: UMASK });
    console.log(`private data directory: modes of a directory left open: ${modeCounts(before)}; after a start: ${modeCounts(walk(dataDir))}`);
    const said = logLines(berth);
    expect(said).toHaveLength(1);
    expect((JSON.parse(said[0]!) as { msg: string }).msg).toContain(`${opened} entries were open to other accounts`);
    expect((JSON.parse(said[0]!) as { level: number }).level).toBe(40);
    expectPrivate(dataDir, walk(dataDir));
  });
});
