// The small part of POSIX tar (ustar) that backups need: regular files only, written as a stream
// of chunks and read back as a stream of entries, so neither side ever holds an archive in memory.
// Berth has no tar dependency and needs none: a header is 512 bytes of fixed fields. The reader
// is strict on purpose (checksums, regular files, an end marker), because it reads archives that
// may have been damaged or tampered with.
import { createHash } from "node:crypto";

const BLOCK = 512;
/** The largest size the 11 octal digits of a classic header hold; larger sizes use base-256. */
const MAX_OCTAL_SIZE = 0o77777777777;

/** The archive is not one Berth can read: damaged, cut short, or not a plain tar of files. */
export class TarFormatError extends Error {}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; the reader skips whatever the consumer leaves unread. */
  body: AsyncIterable<Buffer>;
}

/** What an entry turned out to be once written or read: its length and SHA-256. */
export interface PartDigest {
  size: number;
  sha256: string;
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, "0") + "\0", offset, length, "ascii");
}

export function tarHeader(name: string, size: number, mtime: Date, mode = 0o600): Buffer {
  const nameBytes = Buffer.from(name, "utf8");
  if (nameBytes.length > 100) throw new TarFormatError(`The name ${name} is longer than 100 bytes`);
  if (!Number.isSafeInteger(size) || size < 0) throw new TarFormatError(`Invalid size ${size}`);
  const header = Buffer.alloc(BLOCK);
  nameBytes.copy(header, 0);
  writeOctal(header, 100, 8, mode);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  if (size <= MAX_OCTAL_SIZE) writeOctal(header, 124, 12, size);
  else {
    // GNU base-256: the high bit of the first byte set, the value big-endian in the rest.
    header[124] = 0x80;
    header.writeBigUInt64BE(BigInt(size), 128);
  }
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header.write("0", 156, "ascii");
  header.write("ustar\0" + "00", 257, "ascii");
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return header;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Two zero blocks: the end of the archive. */
export const tarEnd = (): Buffer => Buffer.alloc(BLOCK * 2);

/**
 * One entry's chunks: header, body, padding. Hashes and counts the body as it passes and calls
 * `done` with the result; throws if the body is not exactly `size` bytes, because the header
 * already promised that length.
 */
export async function* tarEntry(
  name: string,
  size: number,
  body: AsyncIterable<Buffer | Uint8Array> | Buffer,
  done: (digest: PartDigest) => void,
  mtime = new Date(),
): AsyncGenerator<Buffer> {
  yield tarHeader(name, size, mtime);
  const hash = createHash("sha256");
  let written = 0;
  const chunks: AsyncIterable<Buffer | Uint8Array> | Buffer[] = Buffer.isBuffer(body) ? [body] : body;
  for await (const raw of chunks) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    written += chunk.length;
    if (written > size) throw new TarFormatError(`${name} is longer than the ${size} bytes expected`);
    hash.update(chunk);
    yield chunk;
  }
  if (written !== size) throw new TarFormatError(`${name} is ${written} bytes, not the ${size} expected`);
  const pad = padding(size);
  if (pad > 0) yield Buffer.alloc(pad);
  done({ size, sha256: hash.digest("hex") });
}

/** Exact-length reads over a stream of chunks of any size. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    if (chunk.length > 0) {
      this.buffered.push(chunk);
      this.length += chunk.length;
    }
    return true;
  }

  /** Exactly `n` bytes, or null at a clean end of the stream. */
  async read(n: number): Promise<Buffer | null> {
    while (this.length < n) {
      if (!(await this.fill())) {
        if (this.length === 0) return null;
        throw new TarFormatError("The archive is cut short");
      }
    }
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const result = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return result;
  }

  /** Up to `n` bytes as they arrive, in the chunks they arrive in. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.length === 0 && !(await this.fill())) throw new TarFormatError("The archive is cut short");
      const chunk = this.buffered.shift();
      if (!chunk) continue;
      this.length -= chunk.length;
      if (chunk.length > left) {
        const head = chunk.subarray(0, left);
        const rest = chunk.subarray(left);
        this.buffered.unshift(rest);
        this.length += rest.length;
        left = 0;
        yield head;
      } else {
        left -= chunk.length;
        yield chunk;
      }
    }
  }

  async skip(n: number): Promise<void> {
    for await (const chunk of this.take(n)) void chunk;
  }

  /** Whether every byte still to come is zero: what may follow the end marker. */
  async restIsZero(): Promise<boolean> {
    for (;;) {
      for (const chunk of this.buffered) if (chunk.some((byte) => byte !== 0)) return false;
      this.buffered = [];
      this.length = 0;
      if (!(await this.fill())) return true;
    }
  }
}

function readOctal(header: Buffer, offset: number, length: number, what: string): number {
  const text = header
    .subarray(offset, offset + length)
    .toString("ascii")
    .replace(/[\0 ]+$/, "")
    .replace(/^ +/, "");
  if (!/^[0-7]*$/.test(text)) throw new TarFormatError(`The archive has an invalid ${what} field`);
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function readSize(header: Buffer): number {
  if ((header[124]! & 0x80) === 0) return readOctal(header, 124, 12, "size");
  if (header[124] !== 0x80 || header.readUInt32BE(124) !== 0x80000000) throw new TarFormatError("The archive has an entry too large to read");
  const size = header.readBigUInt64BE(128);
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) throw new TarFormatError("The archive has an entry too large to read");
  return Number(size);
}

function parseHeader(header: Buffer): { name: string; size: number } {
  const stored = readOctal(header, 148, 8, "checksum");
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  if (sum !== stored) throw new TarFormatError("An entry's header is damaged (its checksum does not match)");
  if (header.subarray(257, 262).toString("ascii") !== "ustar") throw new TarFormatError("This is not a ustar archive");
  const type = header[156];
  if (type !== 0x30 && type !== 0) throw new TarFormatError("The archive holds something other than plain files");
  const field = (offset: number, length: number) => {
    const bytes = header.subarray(offset, offset + length);
    const end = bytes.indexOf(0);
    return bytes.subarray(0, end === -1 ? length : end).toString("utf8");
  };
  const prefix = field(345, 155);
  const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
  return { name, size: readSize(header) };
}

/**
 * The archive's entries in order. Each entry's body must be read (or left) before asking for the
 * next one. Throws TarFormatError on a damaged header, anything but plain files, an archive cut
 * short, or bytes after the end marker other than zeros.
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  for (;;) {
    const header = await reader.read(BLOCK);
    if (header === null) throw new TarFormatError("The archive is cut short (it has no end marker)");
    if (header.every((byte) => byte === 0)) {
      if (!(await reader.restIsZero())) throw new TarFormatError("The archive has data after its end marker");
      return;
    }
    const { name, size } = parseHeader(header);
    let left = size;
    const body = (async function* () {
      for await (const chunk of reader.take(size)) {
        left -= chunk.length;
        yield chunk;
      }
    })();
    yield { name, size, body };
    // Whatever the consumer did not read of the body, then the padding to the next header.
    await reader.skip(left + padding(size));
  }
}
