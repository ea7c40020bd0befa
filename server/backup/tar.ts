// The small part of POSIX tar (ustar) that backups need: regular files only, written as a stream
// of chunks and read back as a stream of entries, so neither side ever holds an archive in memory.
// Berth has no tar dependency and needs none: a header is 512 bytes of fixed fields. Reading goes
// through the uploads' reader (uploads/tarReader.ts), strict on purpose (checksums, an end
// marker), because backups may have been damaged or tampered with; here anything but a plain
// file is refused as well.
import { createHash } from "node:crypto";
import { readTarEntries, TarFormatError, tarPadding as padding } from "../uploads/tarReader";

export { TarFormatError };

const BLOCK = 512;
/** The largest size the 11 octal digits of a classic header hold; larger sizes use base-256. */
const MAX_OCTAL_SIZE = 0o77777777777;

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

/**
 * The archive's entries in order, plain files only (a backup holds nothing else). Each entry's
 * body must be read (or left) before asking for the next one. Throws TarFormatError on a damaged
 * header, anything but plain files, an archive cut short, or bytes after the end marker other
 * than zeros.
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  for await (const entry of readTarEntries(source)) {
    if (entry.type !== "file") throw new TarFormatError("The archive holds something other than plain files");
    yield { name: entry.name, size: entry.size, body: entry.body };
  }
}
