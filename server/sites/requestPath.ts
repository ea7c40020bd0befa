// Turns a request target into a path inside a deployment, or refuses it (the edge, and the
// publish check resolving references as the edge would). Every segment is
// percent-decoded exactly once and then checked, so no encoding (%2e%2e, %2f, %5c, %00) can
// climb out of the deployment or smuggle a separator.

export type RequestPath = { ok: true; path: string; directory: boolean } | { ok: false };

export function parseRequestPath(target: string): RequestPath {
  const end = target.search(/[?#]/);
  const raw = end === -1 ? target : target.slice(0, end);
  if (!raw.startsWith("/")) return { ok: false };
  const segments: string[] = [];
  const parts = raw.slice(1).split("/");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    // Empty segments ("//", a trailing "/") carry no name; a trailing one marks a directory.
    if (part === "") continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return { ok: false };
    }
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (decoded === "." || decoded === ".." || /[/\\\u0000-\u001f\u007f]/.test(decoded)) return { ok: false };
    segments.push(decoded.normalize("NFC"));
  }
  return { ok: true, path: segments.join("/"), directory: raw.endsWith("/") };
}

/** A URL path for a file in the site, each segment encoded. */
export function hrefFor(path: string): string {
  return "/" + path.split("/").map(encodeURIComponent).join("/");
}
