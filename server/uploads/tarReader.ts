// A streaming reader of tar archives (POSIX ustar, with the GNU and pax extensions real archivers
// use for long names), for archives that may be damaged or hostile: uploads and backups. It
// never holds more than one header and the chunk in hand, checks every header's checksum, and
// says what each entry is, so its callers refuse links and devices by name. Berth has no tar
// dependency and needs none: a header is 512 bytes of fixed fields.

const BLOCK = 512;
/** The longest GNU long name or pax header accepted: real ones are a path or two. */
const MAX_META_BYTES = 64 * 1024;

/** The archive is not one Berth can read: damaged, cut short, or not a tar at all. */
export class TarFormatError extends Error {}

export type TarEntryType = "file" | "directory" | "symlink" | "hardlink" | "special";

export interface TarEntry {
  /** As the archive spells it (a pax path or GNU long name when there is one), not checked. */
  name: string;
  type: TarEntryType;
  size: number;
  /** The entry's bytes; the reader skips whatever the consumer leaves unread. */
  body: AsyncIterable<Buffer>;
}

export const tarPadding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Exact-length reads over a stream of chunks of any size. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer | Uint8Array>) {}

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const value = next.value;
    const chunk = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
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
    .toString("latin1")
    .replace(/[\0 ]+$/, "")
    .replace(/^ +/, "");
  if (!/^[0-7]*$/.test(text)) throw new TarFormatError(`The archive has an invalid ${what} field`);
  const value = text === "" ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value)) throw new TarFormatError(`The archive has an invalid ${what} field`);
  return value;
}

function readSize(header: Buffer): number {
  if ((header[124]! & 0x80) === 0) return readOctal(header, 124, 12, "size");
  // GNU base-256: the high bit of the first byte set, the value big-endian in the rest. A
  // negative size (first byte 0xff) or one past 2^53 is refused.
  if (header[124] !== 0x80 || header.readUInt32BE(124) !== 0x80000000) throw new TarFormatError("The archive has an entry too large to read");
  const size = header.readBigUInt64BE(128);
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) throw new TarFormatError("The archive has an entry too large to read");
  return Number(size);
}

function verifyChecksum(header: Buffer): void {
  const stored = readOctal(header, 148, 8, "checksum");
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  // Some old archivers summed signed bytes; both are what the format allows.
  if (stored !== unsigned && stored !== signed) throw new TarFormatError("An entry's header is damaged (its checksum does not match)");
}

function field(header: Buffer, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString("utf8");
}

/** A data entry's kind by its type flag; undefined for the extension headers read here. */
function entryType(flag: number): TarEntryType {
  switch (flag) {
    case 0: // old tar: a plain file
    case 0x30: // '0'
    case 0x37: // '7' contiguous file: a plain file everywhere but on one old system
      return "file";
    case 0x35: // '5'
      return "directory";
    case 0x32: // '2'
      return "symlink";
    case 0x31: // '1'
      return "hardlink";
    case 0x33: // '3' character device
    case 0x34: // '4' block device
    case 0x36: // '6' FIFO
      return "special";
    default:
      throw new TarFormatError(`The archive has an entry of a kind Berth cannot read (type ${JSON.stringify(String.fromCharCode(flag))})`);
  }
}

/** pax extended header records: "<length> <key>=<value>\n", the length counting the whole record. */
function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const lengthText = space === -1 ? "" : data.subarray(at, space).toString("latin1");
    const length = /^[1-9][0-9]{0,7}$/.test(lengthText) ? Number(lengthText) : NaN;
    if (!(length > 0) || at + length > data.length || data[at + length - 1] !== 0x0a)
      throw new TarFormatError("The archive has a damaged pax header");
    const record = data.subarray(space + 1, at + length - 1).toString("utf8");
    const equals = record.indexOf("=");
    if (equals <= 0) throw new TarFormatError("The archive has a damaged pax header");
    records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}

/**
 * The archive's entries in order. Each entry's body must be read (or left) before asking for the
 * next one. GNU long names ('L'), pax headers ('x': path and size; 'g' is read and ignored) and
 * the ustar prefix field give the full name. Throws TarFormatError on a damaged header, an entry
 * of an unknown kind, an archive cut short or without its end marker, or bytes after the end
 * marker other than zeros.
 */
export async function* readTarEntries(source: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  let longName: string | undefined;
  let pax = new Map<string, string>();
  const readMeta = async (size: number): Promise<Buffer> => {
    if (size > MAX_META_BYTES) throw new TarFormatError("The archive has an extension header too large to read");
    const data = await reader.read(size);
    if (data === null && size > 0) throw new TarFormatError("The archive is cut short");
    await reader.skip(tarPadding(size));
    return data ?? Buffer.alloc(0);
  };
  for (;;) {
    const header = await reader.read(BLOCK);
    if (header === null) throw new TarFormatError("The archive is cut short (it has no end marker)");
    if (header.every((byte) => byte === 0)) {
      if (longName !== undefined || pax.size > 0) throw new TarFormatError("The archive ends after an extension header");
      if (!(await reader.restIsZero())) throw new TarFormatError("The archive has data after its end marker");
      return;
    }
    verifyChecksum(header);
    // "ustar\0" (POSIX) or "ustar  " (GNU); older formats carry no magic and are not read.
    if (header.subarray(257, 262).toString("latin1") !== "ustar") throw new TarFormatError("This is not a ustar archive");
    const flag = header[156]!;
    const size = readSize(header);
    if (flag === 0x4c /* 'L' */) {
      longName = field(await readMeta(size), 0, size);
      continue;
    }
    if (flag === 0x4b /* 'K': a long link target */ || flag === 0x67 /* 'g': global pax */) {
      await readMeta(size);
      continue;
    }
    if (flag === 0x78 /* 'x' */) {
      pax = parsePax(await readMeta(size));
      continue;
    }
    const type = entryType(flag);
    // Only POSIX ustar has the prefix field; old GNU headers keep other fields there.
    const posix = header[262] === 0;
    const prefix = posix ? field(header, 345, 155) : "";
    const name = pax.get("path") ?? longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const paxSize = pax.get("size");
    if (paxSize !== undefined && !/^[0-9]{1,16}$/.test(paxSize)) throw new TarFormatError("The archive has a damaged pax header");
    const dataSize = paxSize === undefined ? size : Number(paxSize);
    if (!Number.isSafeInteger(dataSize)) throw new TarFormatError("The archive has an entry too large to read");
    longName = undefined;
    pax = new Map();
    // Only a file's data is handed on; whatever follows another kind of entry is skipped.
    const bodySize = type === "file" ? dataSize : 0;
    let left = bodySize;
    const body = (async function* () {
      for await (const chunk of reader.take(bodySize)) {
        left -= chunk.length;
        yield chunk;
      }
    })();
    yield { name, type, size: bodySize, body };
    // Whatever the consumer did not read of the body, then the padding to the next header.
    await reader.skip(left + (dataSize - bodySize) + tarPadding(dataSize));
  }
}
