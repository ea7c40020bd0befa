// Berth's own writers make owner-only files and directories even under umask 022, so the data
// directory stays private where restrictUmask() did not run (tests, scripts, a library's caller).
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir } from "./db/lock";
import { createOutboxMailer } from "./mail/mailer";
import { resolveSecret } from "./secrets";
import { createFsBlobStore } from "./storage/fs";
import { receiveToTempFile } from "./uploads/receiveFile";

/** Every entry under `root` (itself included) as "0644 relative/path", sorted. */
function modes(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const info = lstatSync(entry);
    found.push(`${(info.mode & 0o777).toString(8).padStart(4, "0")} ${path.relative(root, entry) || "."}`);
    if (info.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found.sort();
}

const loose = (entries: string[]) => entries.filter((entry) => !/^0[67]00 /.test(entry));

describe("files Berth writes into its data directory, under umask 022", () => {
  let scratch: string;
  let dataDir: string;
  let umask: number;
  beforeAll(() => {
    umask = process.umask(0o022);
    scratch = mkdtempSync(path.join(os.tmpdir(), "berth-private-"));
    // Not there yet: the first writer creates it.
    dataDir = path.join(scratch, "data");
  });
  afterAll(() => {
    process.umask(umask);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the lock, the secret, outbox mail, blobs, their temporary files and a zip upload's are owner-only", async () => {
    const release = lockDataDir(dataDir);
    resolveSecret(undefined, dataDir);
    await createOutboxMailer(path.join(dataDir, "outbox"), "Berth <no-reply@localhost>", pino({ level: "silent" })).send({
      to: "ada@example.com",
      subject: "Reset your password",
      text: "http://localhost:8080/reset?token=t",
    });

    // A put holds its bytes in blobs/tmp/ until they are whole: look while it waits for more.
    const store = createFsBlobStore(path.join(dataDir, "blobs"));
    let more!: () => void;
    const waiting = new Promise<void>((resolve) => (more = resolve));
    let underWay!: () => void;
    const halfway = new Promise<void>((resolve) => (underWay = resolve));
    const source = Readable.from(
      (async function* () {
        yield Buffer.from("first half ");
        underWay();
        await waiting;
        yield Buffer.from("second half");
      })(),
    );
    const put = store.put(source, { maxBytes: 1000 });
    await halfway;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const whilePutting = modes(dataDir);
    more();
    await put;

    const temp = await receiveToTempFile(Readable.from([Buffer.from("PK zip bytes")]), path.join(dataDir, "tmp"), 1000);
    const withUpload = modes(dataDir);
    await temp.remove();
    release();

    expect(whilePutting.some((entry) => entry.includes(`blobs${path.sep}tmp${path.sep}`))).toBe(true);
    expect(withUpload.some((entry) => entry.includes(`tmp${path.sep}upload-`))).toBe(true);
    expect(withUpload.some((entry) => entry.includes(`outbox${path.sep}`))).toBe(true);
    expect(loose(whilePutting)).toEqual([]);
    expect(loose(withUpload)).toEqual([]);
  });
});
