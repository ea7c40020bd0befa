// Return targets after sign-in. Only same-origin paths are accepted, so a crafted link cannot
// send a user elsewhere after they sign in.

export const SAVED_REDIRECT_KEY = "berth.redirectPath";

/** `target` when it is a path on this origin (not "//host" or "/\\host"), else undefined. */
export function safeReturnPath(target: string | null | undefined): string | undefined {
  if (!target || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f]/.test(target)) return undefined;
  return target;
}

/** The login URL that brings the user back to `from` afterwards. */
export function loginPathFor(from: string): string {
  return from === "/dashboard" ? "/auth/login" : `/auth/login?redirect=${encodeURIComponent(from)}`;
}

/**
 * On startup: a path saved in session storage (for example by a page that had to bounce through
 * another URL) is removed and put in the address bar before the router reads it.
 */
export function restoreSavedRedirect(storage: Storage, history: History): void {
  const saved = storage.getItem(SAVED_REDIRECT_KEY);
  if (saved === null) return;
  storage.removeItem(SAVED_REDIRECT_KEY);
  const path = safeReturnPath(saved);
  if (path) history.replaceState(null, "", path);
}
