import type { z } from "zod";
import { AppError } from "../errors";

/** Parses a request body with its zod schema; a failure answers 400 with one message per field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "body";
    fields[key] ??= issue.message;
  }
  const first = Object.values(fields)[0] ?? "Invalid request";
  throw new AppError("invalid_request", 400, first, fields);
}
