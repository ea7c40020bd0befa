// How the signed-in user is named in the dashboard chrome.

/** The name to greet and show: the profile's full name, else the account name. */
export function displayName(profileName: string | null | undefined, accountName: string | null | undefined): string {
  return profileName?.trim() || accountName?.trim() || "";
}

/** The avatar letter: first letter of the name, else of the e-mail address, else "?". */
export function initialFor(name: string | null | undefined, email: string | null | undefined): string {
  const source = name?.trim() || email?.trim() || "";
  const first = Array.from(source)[0];
  return first ? first.toLocaleUpperCase() : "?";
}

/** Milliseconds from `now` to the start of the next minute, when the greeting may change. */
export function msToNextMinute(now: Date): number {
  return 60_000 - (now.getSeconds() * 1000 + now.getMilliseconds());
}
