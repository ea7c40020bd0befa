// Content negotiation of the compressed variants the edge keeps (RFC 9110 §12.5.3), and which
// media types are worth compressing at all.
import { equalsIgnoreCase, isTchar, skipOws } from "./syntax";

export type Encoding = "br" | "gzip" | "identity";

const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const NOT_LISTED = -1;
// Weights are kept in thousandths (qvalue has at most three decimals). An identity that the
// field never mentions is acceptable (§12.5.3) but only as the last resort: weighing it 1.000
// would let "gzip;q=0.8" mean "rather not compressed", which no client intends.
const IMPLICIT_IDENTITY = 1;

// Browsers send a handful of distinct Accept-Encoding values, so parsed weights are remembered
// per header. The cache is bounded and long values skip it, so odd clients cannot grow it.
const CACHE_ENTRIES = 256;
const CACHE_MAX_KEY = 128;
const weightsCache = new Map<string, number>();

/**
 * Which variant to send. Among the available ones (identity always is), the highest weight wins,
 * ties going to br, then gzip, then identity. Tokens and `q` are case-insensitive, `x-gzip`
 * means gzip (§8.4.1.3), `*` weighs every coding not listed (identity included), q=0 forbids,
 * a coding listed twice keeps its lower weight, and a member with a malformed weight is ignored.
 * Never 406: when even identity is refused ("identity;q=0" or "*;q=0") we still send identity,
 * since a representation the client may dislike beats an error page (§12.5.3 allows either).
 * An absent field gets identity too: the RFC allows any coding, but clients that send no
 * Accept-Encoding (scripts, probes, old tools) often cannot decode one.
 */
export function chooseEncoding(acceptEncoding: string | undefined, available: { br: boolean; gzip: boolean }): Encoding {
  if (acceptEncoding === undefined) return "identity";
  let packed = weightsCache.get(acceptEncoding);
  if (packed === undefined) {
    packed = parseWeights(acceptEncoding);
    if (acceptEncoding.length <= CACHE_MAX_KEY) remember(weightsCache, acceptEncoding, packed);
  }
  const br = available.br ? packed >>> 20 : 0;
  const gzip = available.gzip ? (packed >>> 10) & 1023 : 0;
  const identity = packed & 1023;
  if (br > 0 && br >= gzip && br >= identity) return "br";
  if (gzip > 0 && gzip >= identity) return "gzip";
  return "identity";
}

/** The weights of br, gzip and identity in thousandths, packed 10 bits each into one number. */
function parseWeights(field: string): number {
  let br = NOT_LISTED;
  let gzip = NOT_LISTED;
  let identity = NOT_LISTED;
  let star = NOT_LISTED;
  const n = field.length;
  let i = 0;
  while (i < n) {
    i = skipOws(field, i);
    if (i < n && field.charCodeAt(i) === COMMA) {
      i++;
      continue;
    }
    const tokenStart = i;
    while (i < n && isTchar(field.charCodeAt(i))) i++;
    const tokenEnd = i;
    let q = 1000;
    // Parameters: only "q" means anything here; others are skipped. A broken member is dropped
    // rather than guessed at, so we never send a coding the client did not clearly accept.
    let valid = tokenEnd > tokenStart;
    for (;;) {
      i = skipOws(field, i);
      if (i >= n || field.charCodeAt(i) !== SEMICOLON) break;
      i = skipOws(field, i + 1);
      const nameStart = i;
      while (i < n && isTchar(field.charCodeAt(i))) i++;
      const nameEnd = i;
      if (nameEnd === nameStart || field.charCodeAt(i) !== EQUALS) {
        valid = false;
        break;
      }
      const valueStart = ++i;
      while (i < n && isTchar(field.charCodeAt(i))) i++;
      if (equalsIgnoreCase(field, nameStart, nameEnd, "q")) {
        q = parseQvalue(field, valueStart, i);
        if (q < 0) valid = false;
      }
    }
    if (i < n && field.charCodeAt(i) !== COMMA) {
      valid = false;
      const comma = field.indexOf(",", i);
      i = comma === -1 ? n : comma;
    }
    if (!valid) continue;
    if (equalsIgnoreCase(field, tokenStart, tokenEnd, "br")) br = lower(br, q);
    else if (equalsIgnoreCase(field, tokenStart, tokenEnd, "gzip") || equalsIgnoreCase(field, tokenStart, tokenEnd, "x-gzip")) gzip = lower(gzip, q);
    else if (equalsIgnoreCase(field, tokenStart, tokenEnd, "identity")) identity = lower(identity, q);
    else if (tokenEnd - tokenStart === 1 && field.charCodeAt(tokenStart) === 0x2a) star = lower(star, q);
  }
  const fallback = star === NOT_LISTED ? 0 : star;
  if (br === NOT_LISTED) br = fallback;
  if (gzip === NOT_LISTED) gzip = fallback;
  if (identity === NOT_LISTED) identity = star === NOT_LISTED ? IMPLICIT_IDENTITY : star;
  return (br << 20) | (gzip << 10) | identity;
}

function lower(current: number, q: number): number {
  return current === NOT_LISTED ? q : Math.min(current, q);
}

/** qvalue (§12.4.2): "0" ["." 0*3DIGIT] or "1" ["." 0*3"0"], in thousandths; -1 if malformed. */
function parseQvalue(s: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0 || length > 5) return -1;
  const whole = s.charCodeAt(start);
  if (whole !== 0x30 && whole !== 0x31) return -1;
  if (length === 1) return whole === 0x31 ? 1000 : 0;
  if (s.charCodeAt(start + 1) !== 0x2e) return -1;
  let thousandths = 0;
  for (let k = 0; k < 3; k++) {
    const at = start + 2 + k;
    const d = at < end ? s.charCodeAt(at) - 0x30 : 0;
    if (!(d >= 0 && d <= 9)) return -1;
    thousandths = thousandths * 10 + d;
  }
  if (whole === 0x31) return thousandths === 0 ? 1000 : -1;
  return thousandths;
}

// Already compressed, or binary that does not shrink, is everything not matched below: images
// other than SVG/ICO/BMP, audio, video, archives, PDF, WOFF/WOFF2 and octet-stream.
const COMPRESSIBLE = new Set([
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/json",
  "application/x-ndjson",
  "application/xml",
  "application/wasm",
  "application/yaml",
  "application/toml",
  "application/sql",
  "application/graphql",
  "application/rtf",
  "application/x-sh",
  "application/x-tar",
  "application/vnd.ms-fontobject",
  "application/x-font-ttf",
  "application/x-font-otf",
  "application/font-sfnt",
  "font/ttf",
  "font/otf",
  "font/sfnt",
  "font/collection",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "image/bmp",
]);
// Content types come from a deployment's manifest, so there are few distinct ones.
const compressibleCache = new Map<string, boolean>();

/**
 * Whether a response of this Content-Type is worth compressing: text/*, the types above, and any
 * +json or +xml structured-syntax suffix (RFC 6839), which covers manifest+json, ld+json,
 * svg+xml, atom+xml and the like. Parameters and case are ignored.
 */
export function isCompressible(contentType: string): boolean {
  let answer = compressibleCache.get(contentType);
  if (answer === undefined) {
    const semicolon = contentType.indexOf(";");
    const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
    answer = type.startsWith("text/") || COMPRESSIBLE.has(type) || type.endsWith("+json") || type.endsWith("+xml");
    if (contentType.length <= CACHE_MAX_KEY) remember(compressibleCache, contentType, answer);
  }
  return answer;
}

/** Inserts into a bounded map, dropping the oldest entry when full. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_ENTRIES) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(key, value);
}
