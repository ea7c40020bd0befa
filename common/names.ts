// Names people give themselves (sign-up, Settings, better-auth's update-user) and other short
// labels that end up in e-mails. They are one line: no line break and no control character, so
// that a name put into a message can never start a line of its own or reorder the text around it.
import { z } from "zod";

export const NAME_MAX_LENGTH = 100;

/**
 * What a one-line label may not hold: control characters (C0, DEL and C1, NEL among them), the
 * Unicode line and paragraph separators, and the bidirectional embeddings, overrides and
 * isolates, which make the rest of a line read in another order than it is written.
 */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const NOT_ONE_LINE_GLOBAL = new RegExp(NOT_ONE_LINE.source, "gu");

export function isOneLine(text: string): boolean {
  return !NOT_ONE_LINE.test(text);
}

export const NAME_TEXT = {
  required: "Please enter your name",
  tooLong: `Your name can be at most ${NAME_MAX_LENGTH} characters long`,
  oneLine: "Your name must be a single line, without control characters",
} as const;

/** A person's name, on every path that sets one: trimmed, 1 to 100 characters, one line. */
export const PersonName = z
  .string({ error: NAME_TEXT.required })
  .trim()
  .min(1, NAME_TEXT.required)
  .max(NAME_MAX_LENGTH, NAME_TEXT.tooLong)
  .refine(isOneLine, NAME_TEXT.oneLine);

/**
 * A stored name made fit for one line of a message, whatever it holds (rows written before these
 * rules, or by hand): what may not stand on one line becomes a space, and it is cut to the limit.
 */
export function oneLineName(text: string, max = NAME_MAX_LENGTH): string {
  const line = text.replace(NOT_ONE_LINE_GLOBAL, " ").replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  return chars.length <= max
    ? line
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}
