// Tar archives built header by header, so a test can write exactly the archive it means, damaged
// or hostile ones included (the writer Berth ships, backup/tar.ts, writes plain files only).
import { gzipSync } from "node:zlib";

const bytesOf = (content: string | Buffer) => (Buffer.isBuffer(content) ? content : Buffer.from(content));

export interface TarSpec {
  name: string;
  content?: string | Buffer;
  /** The type flag: "0" a file (the default), "2" a symlink, "5" a folder, "L" a GNU long name, "x" a pax header… */
  type?: string;
  linkname?: string;
  /** "ustar\0" + "00" (POSIX, the default) or "ustar  \0" (GNU). */
  magic?: "posix" | "gnu";
  prefix?: string;
  /** Overrides the size field (a lying header). */
  size?: number;
}

/** One 512-byte header with its checksum. */
export function tarHeader(spec: TarSpec): Buffer {
  const header = Buffer.alloc(512);
  const size = spec.size ?? bytesOf(spec.content ?? "").length;
  header.write(spec.name, 0, 100, "utf8");
  header.write("0000644\0", 100, "ascii");
  header.write("0000000\0", 108, "ascii");
  header.write("0000000\0", 116, "ascii");
  header.write(size.toString(8).padStart(11, "0") + "\0", 124, "ascii");
  header.write("14000000000\0", 136, "ascii");
  header.write(spec.type ?? "0", 156, "ascii");
  if (spec.linkname) header.write(spec.linkname, 157, 100, "utf8");
  if (spec.magic === "gnu") header.write("ustar  \0", 257, "ascii");
  else header.write("ustar\u000000", 257, "ascii");
  if (spec.prefix) header.write(spec.prefix, 345, 155, "utf8");
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return header;
}

/** The entry: header, data, padding to 512. */
export function tarEntry(spec: TarSpec): Buffer {
  const data = bytesOf(spec.content ?? "");
  return Buffer.concat([tarHeader(spec), data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** A pax extended header ('x') carrying these records, for the entry after it. */
export function paxEntry(records: Record<string, string>): Buffer {
  const body = Object.entries(records)
    .map(([key, value]) => {
      const rest = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(rest) + 1;
      while (String(length).length + Buffer.byteLength(rest) !== length) length = String(length).length + Buffer.byteLength(rest);
      return `${length}${rest}`;
    })
    .join("");
  return tarEntry({ name: "PaxHeader", type: "x", content: body });
}

/** Entries and the end marker (two zero blocks). */
export function tarOf(entries: Array<TarSpec | Buffer>): Buffer {
  return Buffer.concat([...entries.map((e) => (Buffer.isBuffer(e) ? e : tarEntry(e))), Buffer.alloc(1024)]);
}

export const tarGzOf = (entries: Array<TarSpec | Buffer>) => gzipSync(tarOf(entries));
