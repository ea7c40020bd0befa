// The one place upload bytes are counted and hashed, shared by both stores so that the size limit
// and the blob's name are computed identically whatever the backend.
import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { BlobTooLargeError } from "./blobStore";

export interface Meter {
  /** Passes bytes through; fails with BlobTooLargeError on the first chunk that crosses the limit. */
  stream: Transform;
  /** The SHA-256 and size of everything that passed; call it only once the stream has ended. */
  result(): { sha256: string; size: number };
}

export function createMeter(maxBytes: number): Meter {
  const hash = createHash("sha256");
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      // Failing here makes pipeline() destroy the source, so the rest of an oversized upload is never read.
      if (size > maxBytes) {
        callback(new BlobTooLargeError(maxBytes));
        return;
      }
      hash.update(bytes);
      callback(null, bytes);
    },
  });
  return {
    stream,
    result: () => ({ sha256: hash.digest("hex"), size }),
  };
}
