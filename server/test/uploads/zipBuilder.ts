// A small zip writer for tests. Unlike a real archiver it writes whatever it is told: names with
// "../" or NUL, Unix modes of symlinks and devices, and sizes or CRCs that lie. Data streams
// through zlib straight to the file, so a 200 MB bomb never sits in memory.
import { open, type FileHandle } from "node:fs/promises";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { crc32, createDeflateRaw } from "node:zlib";

/** The "version made by" host byte (APPNOTE 4.4.2). */
export const CREATOR = { dos: 0, unix: 3 } as const;

export const UNIX_MODE = {
  file: 0o100644,
  directory: 0o040755,
  symlink: 0o120777,
  charDevice: 0o020644,
  blockDevice: 0o060644,
  fifo: 0o010644,
  socket: 0o140755,
} as const;

export interface ZipEntrySpec {
  /** A string is written as UTF-8 (with the UTF-8 flag when it is not ASCII); a Buffer as is. */
  name: string | Buffer;
  /** The entry's bytes: a Buffer, a string, or chunks produced on demand. Default: none. */
  data?: Buffer | string | (() => AsyncIterable<Buffer>);
  method?: "store" | "deflate";
  /** The method number written in the headers instead (the data is still stored or deflated). */
  methodId?: number;
  creator?: number;
  /** A Unix mode (type and permission bits), stored in the high half of the external attributes. */
  mode?: number;
  /** The whole external attributes field; overrides `mode`. */
  externalAttributes?: number;
  /** Raw extra fields, written in both headers. */
  extra?: Buffer;
  /** Extra general-purpose flag bits, e.g. 0x1 (encrypted). */
  flags?: number;
  /** Values written in both headers instead of the true ones. */
  lie?: { uncompressedSize?: number; compressedSize?: number; crc32?: number };
}

interface Written {
  spec: ZipEntrySpec;
  name: Buffer;
  extra: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  offset: number;
}

const DOS_TIME = (12 << 11) | (0 << 5);
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;
const UTF8_FLAG = 0x800;

/** Writes a zip with `entries` to `file` (replacing it). Resolves with the file's size. */
export async function writeZip(file: string, entries: readonly ZipEntrySpec[]): Promise<number> {
  const handle = await open(file, "w");
  try {
    let position = 0;
    const written: Written[] = [];
    for (const spec of entries) {
      const entry = await writeEntry(handle, spec, position);
      written.push(entry);
      position = entry.offset + 30 + entry.name.length + entry.extra.length + entry.compressedSize;
    }
    const centralStart = position;
    for (const entry of written) {
      const header = centralHeader(entry);
      await handle.write(header, 0, header.length, position);
      position += header.length;
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(written.length, 8);
    end.writeUInt16LE(written.length, 10);
    end.writeUInt32LE(position - centralStart, 12);
    end.writeUInt32LE(centralStart, 16);
    await handle.write(end, 0, end.length, position);
    return position + end.length;
  } finally {
    await handle.close();
  }
}

async function writeEntry(handle: FileHandle, spec: ZipEntrySpec, offset: number): Promise<Written> {
  const name = typeof spec.name === "string" ? Buffer.from(spec.name, "utf8") : spec.name;
  const isAscii = typeof spec.name !== "string" || /^[\x20-\x7e]*$/.test(spec.name);
  const flags = (spec.flags ?? 0) | (isAscii ? 0 : UTF8_FLAG);
  const method = spec.method === "deflate" ? 8 : 0;
  const extra = spec.extra ?? Buffer.alloc(0);

  let crc = 0;
  let uncompressedSize = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      crc = crc32(chunk, crc);
      uncompressedSize += chunk.length;
      callback(null, chunk);
    },
  });
  const dataStart = offset + 30 + name.length + extra.length;
  let compressedSize = 0;
  const sink = async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      await handle.write(chunk, 0, chunk.length, dataStart + compressedSize);
      compressedSize += chunk.length;
    }
  };
  const source = Readable.from(chunksOf(spec.data));
  if (method === 8) await pipeline(source, measure, createDeflateRaw(), sink);
  else await pipeline(source, measure, sink);

  const entry: Written = {
    spec,
    name,
    extra,
    flags,
    method: spec.methodId ?? method,
    crc: spec.lie?.crc32 ?? crc,
    compressedSize,
    uncompressedSize: spec.lie?.uncompressedSize ?? uncompressedSize,
    offset,
  };
  const local = localHeader(entry, spec.lie?.compressedSize ?? compressedSize);
  await handle.write(local, 0, local.length, offset);
  return entry;
}

async function* chunksOf(data: ZipEntrySpec["data"]): AsyncGenerator<Buffer> {
  if (data === undefined) return;
  if (typeof data === "string") yield Buffer.from(data, "utf8");
  else if (Buffer.isBuffer(data)) yield data;
  else yield* data();
}

function localHeader(entry: Written, compressedSize: number): Buffer {
  const header = Buffer.alloc(30 + entry.name.length + entry.extra.length);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(entry.flags, 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(entry.crc >>> 0, 14);
  header.writeUInt32LE(compressedSize, 18);
  header.writeUInt32LE(entry.uncompressedSize, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(entry.extra.length, 28);
  entry.name.copy(header, 30);
  entry.extra.copy(header, 30 + entry.name.length);
  return header;
}

function centralHeader(entry: Written): Buffer {
  const { spec } = entry;
  const creator = spec.creator ?? CREATOR.unix;
  const external = spec.externalAttributes ?? (spec.mode !== undefined ? spec.mode * 0x10000 : 0);
  const header = Buffer.alloc(46 + entry.name.length + entry.extra.length);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE((creator << 8) | 20, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(entry.flags, 8);
  header.writeUInt16LE(entry.method, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc >>> 0, 16);
  header.writeUInt32LE(spec.lie?.compressedSize ?? entry.compressedSize, 20);
  header.writeUInt32LE(entry.uncompressedSize, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(entry.extra.length, 30);
  header.writeUInt32LE(external >>> 0, 38);
  header.writeUInt32LE(entry.offset, 42);
  entry.name.copy(header, 46);
  entry.extra.copy(header, 46 + entry.name.length);
  return header;
}

/** `total` bytes of zeros in 64 KiB chunks, produced only as fast as they are consumed. */
export function zeros(total: number): () => AsyncIterable<Buffer> {
  return async function* () {
    const chunk = Buffer.alloc(64 * 1024);
    for (let left = total; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  };
}

/** An Info-ZIP Unicode Path extra field (0x7075): readers prefer its name over the header's. */
export function unicodePathExtra(headerName: string, unicodeName: string): Buffer {
  const name = Buffer.from(unicodeName, "utf8");
  const field = Buffer.alloc(4 + 5 + name.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + name.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(Buffer.from(headerName, "utf8")) >>> 0, 5);
  name.copy(field, 9);
  return field;
}
