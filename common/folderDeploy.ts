// How a folder becomes a deploy, the same in the berth CLI and in the dashboard's folder drop:
// which names are left out, how the missing files are spread over requests, and the tar header
// that carries many small files in one. This module imports nothing, on purpose: the CLI is one
// dependency-free file and takes only types from the rest of common/ (a value from there would
// bundle zod), but it may take values from here.

/** The one folder whose name starts with a dot that goes with a site, and only at its top. */
export const WELL_KNOWN = ".well-known";

/**
 * Whether a file or folder of this name is left out of a deploy: every name starting with "."
 * (.git, .env, .DS_Store, editors' swap files: a folder's private matters, never meant to be
 * served), except a .well-known folder directly at the site's top, where the web looks for it
 * (RFC 8615: security.txt, domain and app verification). `atTop`: the name sits directly at the
 * site's top, not inside one of its folders.
 */
export function isLeftOut(name: string, atTop: boolean): boolean {
  return name.startsWith(".") && !(atTop && name === WELL_KNOWN);
}

/**
 * Whether a folder (below the site's top) holding entries of these names holds nothing deployed:
 * none at all, or only names left out. A manifest lists files only, so such a folder travels in
 * the deploy's `folders`, and the site keeps it as a zip upload keeps an empty folder.
 */
export function isEmptyFolder(names: readonly string[]): boolean {
  return names.every((name) => isLeftOut(name, false));
}

/** Files above this go alone (one PUT each); the rest in tar batches. */
export const LARGE_FILE_BYTES = 1024 * 1024;
/** A tar batch is closed at this many bytes of files… */
export const BATCH_BYTES = 8 * 1024 * 1024;
/** …or this many files. */
export const BATCH_FILES = 500;
/** Requests in flight at once: enough to hide each one's round trip, few enough to leave a browser connections for the rest of the page. */
export const UPLOAD_CONCURRENCY = 4;

export type UploadJob<F> = { kind: "file"; file: F } | { kind: "batch"; files: F[] };

/**
 * Missing files of up to this many bytes in all go in the publish request's own body (a tar, as a
 * batch), so a small change is deployed in two requests, the manifest and the publish, instead of
 * three. More than this is sent first, UPLOAD_CONCURRENCY requests at a time, which moves bytes
 * faster than one request.
 */
export const WITH_PUBLISH_BYTES = 1024 * 1024;

/** Whether these missing files (one per digest) go with the publish rather than before it. */
export function sendWithPublish(files: readonly { size: number }[]): boolean {
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  return files.length > 0 && files.length <= BATCH_FILES && bytes <= WITH_PUBLISH_BYTES;
}

/**
 * What storing a file costs the server besides its bytes (its own syncs), in bytes: the weight by
 * which batches are evened out, so that a batch of many tiny files counts for what it costs.
 */
const FILE_WEIGHT = 64 * 1024;

/**
 * The requests that send these files (one entry per digest). A small file costs more in its
 * request's round trip than in its bytes, so small files travel many to a tar; a large one goes
 * alone, streamed from disk, so nothing holds it in memory and a retry resends only it. The large
 * ones come first so they start early. The small ones are cut, in order, into a whole number of
 * waves of UPLOAD_CONCURRENCY batches of even weight (each within BATCH_BYTES and BATCH_FILES), so
 * every request in flight has a share, the server stores them side by side, and no small last
 * batch waits alone for a free slot. A batch of one goes as a plain PUT, which spares the server
 * the tar's look over the whole manifest (a redeploy that changed one file sends exactly one PUT).
 */
export function planUploads<F extends { size: number }>(files: readonly F[]): UploadJob<F>[] {
  const large = files.filter((f) => f.size > LARGE_FILE_BYTES).sort((a, b) => b.size - a.size);
  const small = files.filter((f) => f.size <= LARGE_FILE_BYTES);
  const jobs: UploadJob<F>[] = large.map((file) => ({ kind: "file", file }));
  const smallBytes = small.reduce((sum, f) => sum + f.size, 0);
  const waves = Math.max(1, Math.ceil(Math.max(small.length / BATCH_FILES, smallBytes / BATCH_BYTES) / UPLOAD_CONCURRENCY));
  const batches = Math.min(small.length, waves * UPLOAD_CONCURRENCY);
  const totalWeight = smallBytes + small.length * FILE_WEIGHT;
  let batch: F[] = [];
  let bytes = 0;
  let weightSoFar = 0;
  // The batches cut so far at the even shares' boundaries: a file goes to the batch its middle falls in.
  let boundariesPassed = 0;
  const close = () => {
    if (batch.length === 1) jobs.push({ kind: "file", file: batch[0]! });
    else if (batch.length > 1) jobs.push({ kind: "batch", files: batch });
    batch = [];
    bytes = 0;
  };
  for (const file of small) {
    const weight = file.size + FILE_WEIGHT;
    const middle = ((weightSoFar + weight / 2) * batches) / totalWeight;
    if (batch.length > 0 && (middle > boundariesPassed + 1 || bytes + file.size > BATCH_BYTES || batch.length >= BATCH_FILES)) {
      close();
      boundariesPassed = Math.max(boundariesPassed, Math.floor(middle));
    }
    batch.push(file);
    bytes += file.size;
    weightSoFar += weight;
  }
  close();
  return jobs;
}

// A minimal tar (POSIX ustar, uncompressed), as the deploy API's batch upload reads it: each entry
// a regular file named by its digest, so names stay short (64 characters fit the 100-byte name
// field) and nothing about the local tree, such as owners or modes, needs to be carried.

export const TAR_BLOCK = 512;
/** The largest size the 11 octal digits of the size field can say: 8 GiB less a byte. */
export const TAR_MAX_ENTRY_BYTES = 8 ** 11 - 1;

const encoder = new TextEncoder();

function writeString(header: Uint8Array, offset: number, length: number, value: string): void {
  const bytes = encoder.encode(value);
  if (bytes.length > length) throw new Error(`tar: "${value}" does not fit in ${length} bytes`);
  header.set(bytes, offset);
}

/** An octal number, zero-padded to `length - 1` digits and ended by NUL, as ustar writes them. */
function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  writeString(header, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

/** The 512-byte header of a regular file; mtime in seconds since 1970, 0 unless told, so equal input gives equal bytes. */
export function tarHeader(name: string, size: number, mtime = 0): Uint8Array<ArrayBuffer> {
  if (size > TAR_MAX_ENTRY_BYTES) throw new Error(`tar: an entry of ${size} bytes is too large`);
  const header = new Uint8Array(TAR_BLOCK);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, mtime);
  header.fill(0x20, 148, 156);
  header[156] = 0x30; // "0": a regular file
  writeString(header, 257, 6, "ustar\0");
  writeString(header, 263, 2, "00");
  let sum = 0;
  for (const byte of header) sum += byte;
  // Six octal digits, NUL, space: the checksum's customary form.
  writeString(header, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return header;
}

/** The zero bytes after `size` bytes of data, up to the next block. */
export function tarPaddingSize(size: number): number {
  return (TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK;
}

/** The two empty blocks that end an archive. */
export const TAR_END_BYTES = TAR_BLOCK * 2;
