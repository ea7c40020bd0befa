// A password typed into one of the edge's forms (the site's, a share link's) is one rate-limited
// attempt per site or link and client address: counted before scrypt runs, so a burst of
// parallel guesses gets no more checks than the limit allows, and a right password gives its
// attempt back, so only wrong ones use the limit up (visitors behind one address all get in).
import type { Db } from "../db/client";
import { limitedAttempt, type AttemptLimit, type AttemptOutcome } from "../services/limitedAttempt";
import { verifySitePassword } from "../auth/sitePasswords";

/** `result` is whether the password was right; `stored` null (no password any more) never is. */
export function tryFormPassword(db: Db, limit: AttemptLimit, password: string, stored: string | null): Promise<AttemptOutcome<boolean>> {
  return limitedAttempt(
    db,
    limit,
    async () => stored !== null && (await verifySitePassword(password, stored)),
    (right) => right,
  );
}
