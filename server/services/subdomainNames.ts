// Names for the subdomain pool: 5 random lowercase letters, never a reserved word and never one
// of a short list of offensive words (also checked as substrings, since 5 letters can spell
// them inside a longer run).
import { randomInt } from "node:crypto";

export const SUBDOMAIN_LENGTH = 5;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Names with a meaning for the service itself, or that users would mistake for one. */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  "www",
  "api",
  "app",
  "apps",
  "admin",
  "mail",
  "email",
  "smtp",
  "imap",
  "pop",
  "ftp",
  "sftp",
  "ssh",
  "cdn",
  "static",
  "assets",
  "media",
  "files",
  "img",
  "images",
  "docs",
  "help",
  "support",
  "status",
  "blog",
  "dev",
  "test",
  "stage",
  "beta",
  "auth",
  "login",
  "logout",
  "signin",
  "signup",
  "account",
  "billing",
  "pay",
  "secure",
  "root",
  "berth",
  "dash",
  "panel",
  "owner",
  "staff",
  "team",
  "abuse",
  "noreply",
  "nobody",
  "proxy",
  "relay",
  "dns",
  "ns",
  "mx",
  "vpn",
  "git",
  "edge",
  "sites",
  "site",
  "local",
  "localhost",
  "store",
  "shop",
  "legal",
  "terms",
  "privacy",
  "about",
  "news",
  "info",
]);

// Kept short and plain on purpose: this only has to stop the obvious.
const OFFENSIVE = [
  "fuck",
  "shit",
  "cunt",
  "dick",
  "cock",
  "piss",
  "twat",
  "slut",
  "whore",
  "bitch",
  "nazi",
  "rape",
  "porn",
  "anal",
  "tits",
  "fag",
  "nig",
  "kkk",
  "sex",
  "cum",
  "ass",
];

export function isIssuableSubdomain(name: string): boolean {
  if (!/^[a-z]{5}$/.test(name)) return false;
  if (RESERVED_SUBDOMAINS.has(name)) return false;
  return !OFFENSIVE.some((word) => name.includes(word));
}

export function randomSubdomain(random: (max: number) => number = randomInt): string {
  for (;;) {
    let name = "";
    for (let i = 0; i < SUBDOMAIN_LENGTH; i++) name += LETTERS[random(LETTERS.length)];
    if (isIssuableSubdomain(name)) return name;
  }
}

/** `count` distinct issuable names not in `taken`. */
export function freshSubdomains(count: number, taken: ReadonlySet<string>, random?: (max: number) => number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const name = randomSubdomain(random);
    if (!taken.has(name)) names.add(name);
  }
  return [...names];
}
