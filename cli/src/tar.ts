// The tar that carries many small files of a deploy in one request, as Buffers sent whole.
// The format itself (ustar headers named by digest) is common/folderDeploy.ts, which the
// dashboard's folder drop writes too.
import { TAR_END_BYTES, TAR_MAX_ENTRY_BYTES, tarHeader as ustarHeader, tarPaddingSize } from "../../common/folderDeploy";

export { TAR_MAX_ENTRY_BYTES };

export interface TarEntry {
  name: string;
  data: Buffer;
  /** Modification time in seconds since 1970; 0 unless told, so equal input gives equal bytes. */
  mtime?: number;
}

export function tarHeader(name: string, size: number, mtime = 0): Buffer {
  const header = ustarHeader(name, size, mtime);
  return Buffer.from(header.buffer, header.byteOffset, header.byteLength);
}

/** The padding after `size` bytes of data, up to the next block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc(tarPaddingSize(size));
}

/** The two empty blocks that end an archive. */
export const TAR_END = Buffer.alloc(TAR_END_BYTES);

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
  return sizes.reduce((total, size) => total + 512 + size + tarPaddingSize(size), 0) + TAR_END_BYTES;
}
