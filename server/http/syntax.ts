// The few pieces of RFC 9110 §5.6 syntax the header parsers share (these and the edge's Range). They take an index
// and return an index so that parsing a header never slices it into new strings.

const SP = 0x20;
const HTAB = 0x09;

/** OWS: spaces and horizontal tabs. */
export function isOws(c: number): boolean {
  return c === SP || c === HTAB;
}

export function skipOws(s: string, i: number): number {
  while (i < s.length && isOws(s.charCodeAt(i))) i++;
  return i;
}

// tchar (§5.6.2): "!#$%&'*+-.^_`|~", digits and letters.
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TCHAR[c.charCodeAt(0)] = 1;

export function isTchar(c: number): boolean {
  return c < 128 && TCHAR[c] === 1;
}

/** The character code lower-cased when it is an ASCII capital, for case-insensitive tokens. */
function lowerAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** `s[start, end)` equals the lower-case ASCII `lower`, ignoring ASCII case. */
export function equalsIgnoreCase(s: string, start: number, end: number, lower: string): boolean {
  if (end - start !== lower.length) return false;
  for (let k = 0; k < lower.length; k++) if (lowerAscii(s.charCodeAt(start + k)) !== lower.charCodeAt(k)) return false;
  return true;
}
