// Finds the references in CSS (`url(…)`, `@import "…"`) in one pass over the text, by hand:
// uploaded stylesheets are hostile input, and a hand-written scanner is linear whatever they hold
// (no regular expression can backtrack on a million-character line; searches use find(), see there).
import { find } from "./find";

export interface CssRef {
  value: string;
  /** Index in the text of the reference's first character. */
  pos: number;
}

const isIdent = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95 || c > 127;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

function matchesAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(at + k) | 32) !== word.charCodeAt(k)) return false;
  return true;
}

/** A quoted string starting at `at` (the quote): its content and the index after it. Ends at the quote, a newline or `end`. */
function readString(text: string, at: number, end: number): { value: string; next: number } {
  const quote = text.charCodeAt(at);
  let i = at + 1;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === quote || c === 10) break;
    i += c === 92 ? 2 : 1; // a backslash escapes the next character
  }
  return { value: text.slice(at + 1, Math.min(i, end)), next: i + 1 };
}

/** Calls `emit` for each reference in text[start, end), in order. */
export function scanCss(text: string, emit: (ref: CssRef) => void, start = 0, end = text.length): void {
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      // A comment: its references are not loaded.
      const close = find(text, "*/", i + 2);
      i = close === -1 || close >= end ? end : close + 2;
    } else if (c === 34 || c === 39) {
      i = readString(text, i, end).next;
    } else if (c === 64 && matchesAt(text, i + 1, "import") && !isIdent(text.charCodeAt(i + 7))) {
      let j = i + 7;
      while (j < end && isSpace(text.charCodeAt(j))) j++;
      const q = text.charCodeAt(j);
      if (j < end && (q === 34 || q === 39)) {
        const s = readString(text, j, end);
        emit({ value: s.value, pos: j + 1 });
        i = s.next;
      } else i = j; // url(…) is found by the next turn
    } else if ((c | 32) === 117 && matchesAt(text, i, "url(") && (i === start || !isIdent(text.charCodeAt(i - 1)))) {
      let j = i + 4;
      while (j < end && isSpace(text.charCodeAt(j))) j++;
      const q = text.charCodeAt(j);
      if (j < end && (q === 34 || q === 39)) {
        const s = readString(text, j, end);
        emit({ value: s.value, pos: j + 1 });
        i = s.next;
      } else {
        const close = find(text, ")", j);
        const stop = close === -1 || close > end ? end : close;
        emit({ value: text.slice(j, stop).trim(), pos: j });
        i = stop + 1;
      }
    } else i++;
  }
}
