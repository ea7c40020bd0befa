// Reads a multipart upload the streaming way: text fields first, then one file part that is
// handed on as a stream, never buffered. Anything after the file is ignored.
import type { FastifyRequest } from "fastify";
import type { MultipartFile } from "@fastify/multipart";
import { AppError } from "../../errors";
import { SITE_TEXT } from "../../../common/sites";
import type { IncomingFile } from "../../services/stageUpload";

export async function readUpload<T>(
  request: FastifyRequest,
  handle: (fields: Record<string, string>, file: MultipartFile) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new AppError("invalid_request", 400, "Send the file as multipart/form-data");
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === "field") {
      if (typeof part.value === "string") fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== "file") {
      part.file.resume();
      continue;
    }
    // Awaited inside the loop: leaving it early must wait until the file has been consumed.
    return await handle(fields, part);
  }
  throw new AppError("file_required", 400, SITE_TEXT.fileRequired, undefined, SITE_TEXT.fileRequiredDescription);
}

/** The part as the upload services take it: its name, declared type and byte stream. */
export function incomingFile(part: MultipartFile): IncomingFile {
  return { filename: part.filename, mimetype: part.mimetype, stream: part.file };
}
