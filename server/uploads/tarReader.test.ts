// The tar reader on archives written by GNU tar and by hand: names in every form real archivers
// write them (ustar prefix, GNU long names, pax paths), entry kinds, and damage of every kind.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { paxEntry, tarEntry, tarHeader, tarOf } from "../test/uploads/tarBuilder";
import { readTarEntries, TarFormatError, type TarEntryType } from "./tarReader";

/** Every entry's name, kind and bytes, read in chunks of `chunkSize` to exercise the buffering. */
async function listing(archive: Buffer, chunkSize = 7): Promise<Array<{ name: string; type: TarEntryType; body: string }>> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < archive.length; at += chunkSize) chunks.push(archive.subarray(at, at + chunkSize));
  const entries = [];
  for await (const entry of readTarEntries(Readable.from(chunks))) {
    const parts: Buffer[] = [];
    for await (const chunk of entry.body) parts.push(chunk);
    entries.push({ name: entry.name, type: entry.type, body: Buffer.concat(parts).toString("utf8") });
  }
  return entries;
}

describe("readTarEntries", () => {
  it.each(["gnu", "posix", "ustar"])("reads what GNU tar writes in its %s format, long names included", async (format) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "berth-tar-"));
    const long = `${"a-rather-long-folder-name/".repeat(8)}page.html`;
    mkdirSync(path.join(dir, "site", path.dirname(long)), { recursive: true });
    writeFileSync(path.join(dir, "site", long), "deep");
    writeFileSync(path.join(dir, "site", "caf\u00e9.html"), "accent");
    symlinkSync("/etc/passwd", path.join(dir, "site", "link"));
    // ustar cannot hold a name this long unless it splits at a slash into the prefix field.
    const archive = execFileSync("tar", [`--format=${format}`, "-cf", "-", "-C", dir, "site"]);
    const entries = await listing(archive, 100);
    expect(entries).toContainEqual({ name: `site/${long}`, type: "file", body: "deep" });
    expect(entries).toContainEqual({ name: "site/caf\u00e9.html", type: "file", body: "accent" });
    expect(entries).toContainEqual({ name: "site/link", type: "symlink", body: "" });
    expect(entries).toContainEqual({ name: "site/", type: "directory", body: "" });
  });

  it("takes a pax path and size over the header's, and a GNU long name over the name field", async () => {
    const archive = tarOf([
      paxEntry({ path: "from/pax.html", size: "3" }),
      { name: "short", content: "abc", size: 99 },
      tarEntry({ name: "././@LongLink", type: "L", content: "from/gnu/long-name.html\0" }),
      { name: "truncated-name", content: "x", magic: "gnu" },
      { name: "name.html", prefix: "from/prefix", content: "p" },
    ]);
    const entries = await listing(archive);
    expect(entries.map((e) => [e.name, e.body])).toEqual([
      ["from/pax.html", "abc"],
      ["from/gnu/long-name.html", "x"],
      ["from/prefix/name.html", "p"],
    ]);
  });

  it("says what each entry is", async () => {
    const kinds = { "0": "file", "7": "file", "5": "directory", "2": "symlink", "1": "hardlink", "3": "special", "4": "special", "6": "special" };
    const archive = tarOf(Object.keys(kinds).map((type) => ({ name: `entry-${type}`, type })));
    expect((await listing(archive)).map((e) => e.type)).toEqual(Object.values(kinds));
  });

  it("skips what a consumer leaves unread, and the data of entries that are not files", async () => {
    const archive = tarOf([
      { name: "dir/", type: "5", content: "hidden data after a folder" },
      { name: "big", content: "x".repeat(5000) },
      { name: "after", content: "still here" },
    ]);
    const names: string[] = [];
    for await (const entry of readTarEntries(Readable.from([archive]))) names.push(entry.name);
    expect(names).toEqual(["dir/", "big", "after"]);
  });

  const damaged: [string, () => Buffer, RegExp][] = [
    ["a damaged checksum", () => flip(tarOf([{ name: "a", content: "1" }]), 3), /checksum/],
    ["a damaged size field", () => withChecksum(tarHeader({ name: "a", content: "1" }), (h) => h.write("9zz", 124, "ascii")), /invalid size/],
    ["a negative base-256 size", () => withChecksum(tarHeader({ name: "a" }), (h) => h.fill(0xff, 124, 136)), /too large/],
    [
      "a base-256 size past 2^53",
      () => withChecksum(tarHeader({ name: "a" }), (h) => ((h[124] = 0x80), h.writeBigUInt64BE(2n ** 60n, 128))),
      /too large/,
    ],
    ["an archive cut in a header", () => tarOf([{ name: "a", content: "1" }]).subarray(0, 300), /cut short/],
    ["an archive cut in a file", () => tarOf([{ name: "a", content: "x".repeat(2000) }]).subarray(0, 1000), /cut short/],
    ["no end marker", () => tarEntry({ name: "a", content: "1" }), /no end marker/],
    ["data after the end marker", () => Buffer.concat([tarOf([{ name: "a" }]), Buffer.from("x")]), /after its end marker/],
    ["no ustar magic", () => withChecksum(tarHeader({ name: "a" }), (h) => h.fill(0, 257, 265)), /not a ustar archive/],
    ["an unknown kind of entry", () => tarOf([{ name: "a", type: "S" }]), /kind Berth cannot read/],
    ["a pax header without its newline", () => tarOf([tarEntry({ name: "p", type: "x", content: "12 path=abc" }), { name: "a" }]), /pax header/],
    ["a pax record longer than the header", () => tarOf([tarEntry({ name: "p", type: "x", content: "99 path=abc\n" }), { name: "a" }]), /pax header/],
    ["a pax size that is not a number", () => tarOf([paxEntry({ size: "-1" }), { name: "a" }]), /pax header/],
    ["a huge GNU long name", () => tarOf([tarEntry({ name: "L", type: "L", content: "x".repeat(70 * 1024) }), { name: "a" }]), /too large/],
    ["an extension header at the end", () => tarOf([paxEntry({ path: "a" })]), /ends after an extension header/],
  ];

  it.each(damaged)("refuses %s", async (_name, build, message) => {
    const read = listing(build());
    await expect(read).rejects.toThrow(TarFormatError);
    await expect(listing(build())).rejects.toThrow(message);
  });
});

function flip(archive: Buffer, offset: number): Buffer {
  archive[offset] = archive[offset]! ^ 1;
  return archive;
}

/** A header changed by `change`, its checksum made right again, then the end marker. */
function withChecksum(header: Buffer, change: (header: Buffer) => unknown): Buffer {
  change(header);
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return Buffer.concat([header, Buffer.alloc(1024)]);
}
