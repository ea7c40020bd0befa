// Everything Berth keeps on disk is its own user's alone: the embedded database, blobs of private
// and password-protected sites, outbox mails holding working reset links, the secret. Another
// account on the machine must read and write none of it, whatever the umask Berth was started
// with (022 is the usual one, and would leave every file readable by all).

/** Group and other permission bits; Berth sets none of them on what it writes. */
export const GROUP_AND_OTHER = 0o077;
/** Directories Berth creates. mkdir's mode is masked by the umask, so this only ever narrows it. */
export const PRIVATE_DIR = 0o700;
/** Files Berth creates. */
export const PRIVATE_FILE = 0o600;

/**
 * Makes every file and directory this process creates owner-only, including those of libraries
 * that create them with their own defaults (PGlite's directories, nodemailer, pino). Called first
 * thing by the server's and the CLI's entry points; explicit modes on Berth's own writes keep them
 * private even where this is not called (tests, scripts).
 */
export function restrictUmask(): void {
  process.umask(GROUP_AND_OTHER);
}
