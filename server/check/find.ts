// The scanners' one search primitive.

/**
 * `text.indexOf(needle, from)` as a plain loop. Measured: after the scanner had seen a two-byte
 * string, V8's indexOf took tens of microseconds a call on one-byte ones, and a hostile page
 * ("<<<<…", "<!><!>…") makes a call per character or two: 20 s for 1 MB. This stays linear.
 */
export function find(text: string, needle: string, from: number): number {
  const first = needle.charCodeAt(0);
  const n = text.length - needle.length;
  outer: for (let i = Math.max(from, 0); i <= n; i++) {
    if (text.charCodeAt(i) !== first) continue;
    for (let k = 1; k < needle.length; k++) if (text.charCodeAt(i + k) !== needle.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}
