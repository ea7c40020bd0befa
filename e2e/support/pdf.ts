// Writes a real, linearized ("fast web view") PDF for the browser tests. Chromium's viewer seeks
// only in linearized files: it reads the first page from the head of the file, then fetches the
// main cross-reference table at the tail and later pages by the offsets in the hint stream, with
// Range requests (once partial loading is switched on: see e2e/pdf.e2e.test.ts). It downloads a
// plain PDF whole, however large.
//
// The layout follows ISO 32000-1, Annex F:
//   header · linearization dictionary · first-page xref and trailer · catalog · page tree ·
//   primary hint stream · first page · pages 2..n · main xref and trailer
// Objects of pages 2..n are numbered from 1; the first-page section takes the numbers after them.
// Each later page carries an unreferenced stream of pseudo-random bytes, so the file is large
// while the viewer needs little of it to show the first page.
//
// Every number whose value depends on a position is written at a fixed width, so the file is laid
// out twice: once to measure, once with the measured positions filled in.

export interface GeneratedPdf {
  bytes: Buffer;
  pages: number;
  /** Offset of the first byte after the first page (the linearization dictionary's /E). */
  firstPageEnd: number;
  /** Offset of the main cross-reference table, the part a viewer needs from the tail. */
  mainXrefOffset: number;
}

/** Where things landed in a layout, by byte offset; objects are indexed by object number. */
interface Positions {
  length: number;
  objectStart: number[];
  objectEnd: number[];
  firstXref: number;
  mainXref: number;
  mainXrefFirstEntry: number;
}

const WIDTH = 10;
const fixed = (n: number) => String(n).padEnd(WIDTH, " ");

export function linearizedPdf(options: { pages: number; paddingPerPage: number; seed?: number }): GeneratedPdf {
  const { pages, paddingPerPage } = options;
  if (pages < 2) throw new Error("a linearized PDF with hint tables needs at least two pages");
  const padding = pseudoRandomBytes(paddingPerPage * (pages - 1), options.seed ?? 1);
  const measured = layout(pages, padding, paddingPerPage, undefined);
  const final = layout(pages, padding, paddingPerPage, measured.positions);
  if (JSON.stringify(final.positions) !== JSON.stringify(measured.positions)) throw new Error("the PDF layout moved between passes");
  return { bytes: final.bytes, pages, firstPageEnd: firstPageEnd(pages, measured.positions), mainXrefOffset: measured.positions.mainXref };
}

function numbering(pages: number) {
  const remaining = 3 * (pages - 1); // page, contents, padding for each of pages 2..n
  const linearization = remaining + 1;
  const page = (index: number) => (index === 0 ? linearization + 4 : 3 * (index - 1) + 1);
  return {
    /** The page object of page `index` (0-based); its contents and padding follow it. */
    page,
    pageIds: Array.from({ length: pages }, (_, index) => page(index)),
    linearization,
    catalog: linearization + 1,
    pageTree: linearization + 2,
    hints: linearization + 3,
    firstPage: page(0),
    firstContents: linearization + 5,
    size: linearization + 6,
  };
}

function firstPageEnd(pages: number, at: Positions): number {
  return at.objectEnd[numbering(pages).firstContents]!;
}

function layout(pages: number, padding: Buffer, paddingPerPage: number, at: Positions | undefined): { bytes: Buffer; positions: Positions } {
  const ids = numbering(pages);
  const chunks: Buffer[] = [];
  let length = 0;
  const positions: Positions = { length: 0, objectStart: [], objectEnd: [], firstXref: 0, mainXref: 0, mainXrefFirstEntry: 0 };
  const write = (part: string | Buffer) => {
    const chunk = typeof part === "string" ? Buffer.from(part, "latin1") : part;
    chunks.push(chunk);
    length += chunk.length;
  };
  const object = (id: number, ...body: (string | Buffer)[]) => {
    positions.objectStart[id] = length;
    write(`${id} 0 obj\n`);
    body.forEach(write);
    write("\nendobj\n");
    positions.objectEnd[id] = length;
  };
  const stream = (id: number, dictionary: string, data: Buffer) =>
    object(id, `<< ${dictionary}/Length ${data.length} >>\nstream\n`, data, "\nendstream");
  const xrefEntry = (offset: number) => `${String(offset).padStart(10, "0")} 00000 n\r\n`;
  const start = (id: number) => at?.objectStart[id] ?? 0;
  const hintStart = start(ids.hints);
  const hintLength = at ? at.objectEnd[ids.hints]! - hintStart : 0;
  const pageObject = (contents: number) =>
    `<< /Type /Page /Parent ${ids.pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents ${contents} 0 R >>`;
  const pageText = (index: number) => Buffer.from(`BT /F1 36 Tf 72 680 Td (Page ${index + 1} of ${pages}) Tj ET`, "latin1");

  write("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  object(
    ids.linearization,
    `<< /Linearized 1 /L ${fixed(at?.length ?? 0)} /H [ ${fixed(hintStart)} ${fixed(hintLength)} ] /O ${ids.firstPage} /E ${fixed(at ? firstPageEnd(pages, at) : 0)} /N ${pages} /T ${fixed(at?.mainXrefFirstEntry ?? 0)} >>`,
  );

  positions.firstXref = length;
  write(`xref\n${ids.linearization} ${ids.size - ids.linearization}\n`);
  for (let id = ids.linearization; id < ids.size; id++) write(xrefEntry(start(id)));
  write(`trailer\n<< /Size ${ids.size} /Root ${ids.catalog} 0 R /Prev ${fixed(at?.mainXref ?? 0)} >>\nstartxref\n0\n%%EOF\n`);

  object(ids.catalog, `<< /Type /Catalog /Pages ${ids.pageTree} 0 R >>`);
  const kids = ids.pageIds.map((id) => `${id} 0 R`).join(" ");
  object(ids.pageTree, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  const hints = at ? hintStream(pages, at, hintStart, hintLength) : { data: Buffer.alloc(hintStreamSize(pages)), sharedTableOffset: 0 };
  stream(ids.hints, `/S ${fixed(hints.sharedTableOffset)} `, hints.data);
  object(ids.firstPage, pageObject(ids.firstContents));
  stream(ids.firstContents, "", pageText(0));

  for (let index = 1; index < pages; index++) {
    const id = ids.page(index);
    object(id, pageObject(id + 1));
    stream(id + 1, "", pageText(index));
    stream(id + 2, "", padding.subarray((index - 1) * paddingPerPage, index * paddingPerPage));
  }

  positions.mainXref = length;
  write(`xref\n0 ${ids.linearization}`);
  positions.mainXrefFirstEntry = length;
  write("\n0000000000 65535 f\r\n");
  for (let id = 1; id < ids.linearization; id++) write(xrefEntry(start(id)));
  write(`trailer\n<< /Size ${ids.linearization} >>\nstartxref\n${fixed(positions.firstXref)}\n%%EOF\n`);

  positions.length = length;
  return { bytes: Buffer.concat(chunks, length), positions };
}

// The primary hint stream (Annex F.4): a page offset hint table, then a shared object hint table
// at byte /S. The pages share no objects, so the shared table is a header with no entries.
// Positions at or after the hint stream are written as if the stream were not there.
const PAGE_TABLE_HEADER_BYTES = 36;
const SHARED_TABLE_HEADER_BYTES = 24;

function hintStreamSize(pages: number): number {
  const perPageBits = (bits: number) => Math.ceil((pages * bits) / 8);
  // Per page: object count delta (1 bit), page length delta (32), shared references (1),
  // content stream offset delta (32) and content stream length delta (32).
  return PAGE_TABLE_HEADER_BYTES + perPageBits(1) + perPageBits(32) + perPageBits(1) + perPageBits(32) + perPageBits(32) + SHARED_TABLE_HEADER_BYTES;
}

function hintStream(pages: number, at: Positions, hintStart: number, hintLength: number): { data: Buffer; sharedTableOffset: number } {
  const ids = numbering(pages);
  const withoutHints = (offset: number) => (offset >= hintStart ? offset - hintLength : offset);
  const start = (id: number) => at.objectStart[id]!;
  const end = (id: number) => at.objectEnd[id]!;
  const { pageIds } = ids;
  const objectCounts = pageIds.map((_, index) => (index === 0 ? 2 : 3));
  const pageLengths = pageIds.map((id, index) => (index === 0 ? firstPageEnd(pages, at) : end(id + 2)) - start(id));
  const contentOffsets = pageIds.map((id) => start(id + 1) - start(id));
  const contentLengths = pageIds.map((id) => end(id + 1) - start(id + 1));
  const least = (values: number[]) => Math.min(...values);

  const bits = new BitWriter();
  bits.write(least(objectCounts), 32); // 1: least number of objects in a page
  bits.write(withoutHints(start(ids.firstPage)), 32); // 2: location of the first page's page object
  bits.write(1, 16); // 3: bits per object count delta
  bits.write(least(pageLengths), 32); // 4: least page length
  bits.write(32, 16); // 5: bits per page length delta
  bits.write(least(contentOffsets), 32); // 6: least content stream offset
  bits.write(32, 16); // 7: bits per content stream offset delta
  bits.write(least(contentLengths), 32); // 8: least content stream length
  bits.write(32, 16); // 9: bits per content stream length delta
  bits.write(1, 16); // 10: bits per shared object reference count
  bits.write(1, 16); // 11: bits per shared object identifier
  bits.write(1, 16); // 12: bits per fractional position numerator
  bits.write(1, 16); // 13: fractional position denominator
  const perPage = (values: number[], width: number) => {
    const smallest = least(values);
    for (const value of values) bits.write(value - smallest, width);
    bits.align();
  };
  perPage(objectCounts, 1);
  perPage(pageLengths, 32);
  perPage(
    pageIds.map(() => 0),
    1,
  ); // no shared object references, so no identifiers or numerators
  perPage(contentOffsets, 32);
  perPage(contentLengths, 32);

  const sharedTableOffset = bits.length;
  bits.write(ids.firstPage, 32); // 1: first object of the shared objects section (there is none)
  bits.write(withoutHints(start(ids.firstPage)), 32); // 2: its location
  bits.write(0, 32); // 3: shared object entries for the first page
  bits.write(0, 32); // 4: shared object entries in all
  bits.write(0, 16); // 5: bits per group object count
  bits.write(0, 32); // 6: least group length
  bits.write(1, 16); // 7: bits per group length delta
  const data = bits.bytes();
  if (data.length !== hintStreamSize(pages)) throw new Error(`hint stream is ${data.length} bytes, expected ${hintStreamSize(pages)}`);
  return { data, sharedTableOffset };
}

/** Big-endian bit packing, most significant bit first, as the hint tables are read. */
class BitWriter {
  private readonly out: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, width: number): void {
    if (value < 0 || value >= 2 ** width) throw new Error(`${value} does not fit in ${width} bits`);
    for (let bit = width - 1; bit >= 0; bit--) {
      this.current = (this.current << 1) | (Math.floor(value / 2 ** bit) & 1);
      if (++this.used === 8) this.flush();
    }
  }

  align(): void {
    if (this.used > 0) {
      this.current <<= 8 - this.used;
      this.flush();
    }
  }

  get length(): number {
    return this.out.length + (this.used > 0 ? 1 : 0);
  }

  bytes(): Buffer {
    this.align();
    return Buffer.from(this.out);
  }

  private flush(): void {
    this.out.push(this.current & 0xff);
    this.current = 0;
    this.used = 0;
  }
}

/** Deterministic filler (Marsaglia's xorshift32), so every run writes the same file. */
function pseudoRandomBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed >>> 0 || 1;
  for (let at = 0; at < size; at++) {
    if (at % 4 === 0) {
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
    }
    bytes[at] = (state >>> (8 * (at % 4))) & 0xff;
  }
  return bytes;
}
