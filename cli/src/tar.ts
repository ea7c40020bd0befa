// A minimal tar writer (POSIX ustar, uncompressed): how many small files travel in one request.
// Each entry is a regular file; the deploy API names them by their digest, so names stay short
// (a 64-character digest fits the 100-byte name field) and nothing about the local tree, such
// as owners or modes, needs to be carried.

const BLOCK = 512;
/** The largest size the 11 octal digits of the size field can say: 8 GiB less a byte. */
export const TAR_MAX_ENTRY_BYTES = 8 ** 11 - 1;

export interface TarEntry {
  name: string;
  data: Buffer;
  /** Modification time in seconds since 1970; 0 unless told, so equal input gives equal bytes. */
  mtime?: number;
}

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > length) throw new Error(`tar: "${value}" does not fit in ${length} bytes`);
  bytes.copy(header, offset);
}

/** An octal number, zero-padded to `length - 1` digits and ended by NUL, as ustar writes them. */
function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  writeString(header, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

export function tarHeader(name: string, size: number, mtime = 0): Buffer {
  if (size > TAR_MAX_ENTRY_BYTES) throw new Error(`tar: an entry of ${size} bytes is too large`);
  const header = Buffer.alloc(BLOCK);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, mtime);
  header.fill(" ", 148, 156);
  header.write("0", 156, "latin1");
  writeString(header, 257, 6, "ustar\0");
  writeString(header, 263, 2, "00");
  let sum = 0;
  for (const byte of header) sum += byte;
  // Six octal digits, NUL, space: the checksum's customary form.
  writeString(header, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return header;
}

/** The padding after `size` bytes of data, up to the next block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two empty blocks that end an archive. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

/** The whole archive of `entries`, in their order. */
export function tarArchive(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(tarHeader(entry.name, entry.data.length, entry.mtime ?? 0), entry.data, tarPadding(entry.data.length));
  }
  parts.push(TAR_END);
  return Buffer.concat(parts);
}

/** The size of tarArchive(entries) for entries of these sizes, without building it. */
export function tarSize(sizes: number[]): number {
  return sizes.reduce((total, size) => total + BLOCK + size + tarPadding(size).length, 0) + TAR_END.length;
}
