import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTar, tarEnd, tarEntry, tarHeader, TarFormatError, type PartDigest } from "./tar";

async function archive(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (const { name, data } of entries) {
    for await (const chunk of tarEntry(name, data.length, data, () => {}, new Date("2026-01-02T03:04:05Z"))) chunks.push(chunk);
  }
  chunks.push(tarEnd());
  return Buffer.concat(chunks);
}

/** Feeds `bytes` in pieces of `size`, as a network or a gunzip stream would. */
async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(bytes: Buffer, pieceSize = 7): Promise<{ name: string; data: Buffer }[]> {
  const out: { name: string; data: Buffer }[] = [];
  for await (const entry of readTar(pieces(bytes, pieceSize))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    out.push({ name: entry.name, data: Buffer.concat(chunks) });
  }
  return out;
}

describe("the backup's tar", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "berth-tar-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const entries = [
    { name: "empty", data: Buffer.alloc(0) },
    { name: "blobs/one-block", data: Buffer.alloc(512, 1) },
    { name: "blobs/odd", data: Buffer.from("héllo wörld") },
    { name: "database/big", data: Buffer.alloc(70_001, 7) },
  ];

  it("reads back what it wrote, whatever the chunk sizes", async () => {
    const bytes = await archive(entries);
    expect(bytes.length % 512).toBe(0);
    for (const size of [1, 7, 512, 4096, bytes.length]) expect(await readAll(bytes, size)).toEqual(entries);
  });

  it("writes archives the system's tar lists and extracts byte for byte", async () => {
    const file = path.join(tmp, "a.tar");
    writeFileSync(file, await archive(entries));
    expect(execFileSync("tar", ["-tf", file], { encoding: "utf8" }).trim().split("\n")).toEqual(entries.map((e) => e.name));
    const out = path.join(tmp, "x");
    execFileSync("mkdir", ["-p", out]);
    execFileSync("tar", ["-xf", file, "-C", out]);
    expect(readFileSync(path.join(out, "blobs/odd"), "utf8")).toBe("héllo wörld");
    expect(readFileSync(path.join(out, "database/big")).equals(entries[3]!.data)).toBe(true);
  });

  it("skips what a consumer leaves unread", async () => {
    const names: string[] = [];
    for await (const entry of readTar(pieces(await archive(entries), 100))) names.push(entry.name);
    expect(names).toEqual(entries.map((e) => e.name));
  });

  it("hashes each entry as it passes and refuses a body of another length than promised", async () => {
    let digest: PartDigest | undefined;
    for await (const chunk of tarEntry("x", 3, Buffer.from("abc"), (d) => (digest = d))) void chunk;
    expect(digest).toEqual({ size: 3, sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" });
    const drain = async (size: number) => {
      for await (const chunk of tarEntry("x", size, Buffer.from("abc"), () => {})) void chunk;
    };
    await expect(drain(2)).rejects.toThrow(/longer than the 2 bytes/);
    await expect(drain(4)).rejects.toThrow(/3 bytes, not the 4/);
  });

  it("reads sizes past 8 GiB in base-256", () => {
    const header = tarHeader("huge", 2 ** 34 + 5, new Date());
    expect(header[124]).toBe(0x80);
    expect(header.readBigUInt64BE(128)).toBe(2n ** 34n + 5n);
  });

  it.each([
    ["a damaged header", (b: Buffer) => void (b[10] = b[10]! ^ 1), /checksum/],
    ["an archive cut short", (b: Buffer) => b.subarray(0, 1100), /cut short/],
    ["no end marker", (b: Buffer) => b.subarray(0, b.length - 1024), /no end marker/],
    ["data after the end marker", (b: Buffer) => Buffer.concat([b, Buffer.from("x")]), /after its end marker/],
    [
      "a symbolic link",
      (b: Buffer) => {
        const header = tarHeader("empty", 0, new Date());
        header[156] = 0x32;
        header.fill(0x20, 148, 156);
        let sum = 0;
        for (const byte of header) sum += byte;
        header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
        header.copy(b, 0);
      },
      /other than plain files/,
    ],
  ])("refuses %s", async (_, damage, message) => {
    const bytes = await archive(entries);
    const damaged = (damage(bytes) as Buffer | undefined) ?? bytes;
    await expect(readAll(damaged)).rejects.toThrow(TarFormatError);
    await expect(readAll(damaged)).rejects.toThrow(message);
  });
});
