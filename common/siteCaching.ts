// The Cache-Control values the edge sends with a site's files. The docs' CDN section quotes them
// from here, so what it tells an operator to expect is what the edge does.

/** A live site's files: any cache may keep them, but must ask again (a cheap 304) before reuse. */
export const LIVE_CACHE = "public, max-age=0, must-revalidate";
/** A version URL's files, and names carrying a content hash: their bytes never change. */
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";
/** Password-protected and private sites, share links and Berth's own error pages: never kept. */
export const NEVER_CACHE = "no-store";
