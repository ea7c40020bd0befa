// `berth admin <command> …`: the command line, parsed into a command the server understands.
import type { AdminCommand } from "../services/admin/runCommand";

export const USAGE = `Usage: npm run berth -- admin <command> [arguments]

Commands:
  list-users [--search <text>] [--page <n>]   users, newest first, 50 a page; --search matches e-mail or name
  set-plan <email> <plan>                     give the user a plan: free or pro, or an id in BERTH_PLANS_FILE
  ban <email>                                 sign the user out everywhere, refuse sign-in, stop serving their sites
  unban <email>                               lift a ban; their sites are served again
  promote <email>                             make the user an admin
  demote <email>                              take admin rights away (not from BERTH_ADMIN_EMAILS)
  reset-password <email>                      e-mail the user a password-reset link
  delete-user <email> --yes                   delete the user and all their sites and files, for good
  help                                        show this help

Add --json to print the result as JSON: the list, the user after the change, or { "message" }.
While Berth runs, commands go to it over $BERTH_DATA_DIR/admin.sock; otherwise they open the
database directly, with the same settings as the server (BERTH_DATA_DIR, DATABASE_URL, …).

Backups: npm run berth -- backup <file>, npm run berth -- restore <file> [--data-dir <dir>]
(npm run berth -- backup --help says more).
Checking a setup: npm run berth -- doctor (npm run berth -- doctor --help says more).`;

/** A command line that cannot be run: exit code 2, with the usage. */
export class UsageError extends Error {}

export type ParsedArgs = { kind: "help" } | { kind: "run"; command: AdminCommand; json: boolean };

const EMAIL_COMMANDS = ["ban", "unban", "promote", "demote", "reset-password", "delete-user"] as const;
type EmailCommand = (typeof EMAIL_COMMANDS)[number];

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [scope, name, ...rest] = argv;
  if (scope === undefined || scope === "help" || scope === "--help" || scope === "-h") return { kind: "help" };
  if (scope !== "admin") throw new UsageError(`Unknown command "${scope}". Berth's commands are admin, backup, restore and doctor.`);
  if (name === undefined || name === "help" || name === "--help" || name === "-h") return { kind: "help" };

  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (key === "yes" || key === "json") {
      if (eq !== -1) throw new UsageError(`--${key} takes no value.`);
      options.set(key, true);
    } else if (key === "search" || key === "page") {
      const value = eq === -1 ? rest[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`--${key} needs a value.`);
      options.set(key, value);
    } else {
      throw new UsageError(`Unknown option --${key}.`);
    }
  }
  const json = options.get("json") === true;
  const allowOnly = (...allowed: string[]) => {
    for (const key of options.keys()) {
      if (key !== "json" && !allowed.includes(key)) throw new UsageError(`${name} does not take --${key}.`);
    }
  };
  const expectPositional = (count: number, shape: string) => {
    if (positional.length !== count) throw new UsageError(`Usage: npm run berth -- admin ${name} ${shape}`);
  };

  if (name === "list-users") {
    allowOnly("search", "page");
    expectPositional(0, "[--search <text>] [--page <n>]");
    const search = options.get("search") as string | undefined;
    const pageText = options.get("page") as string | undefined;
    let page: number | undefined;
    if (pageText !== undefined) {
      page = Number(pageText);
      if (!/^[1-9][0-9]{0,6}$/.test(pageText)) throw new UsageError(`--page must be a whole number from 1, not "${pageText}".`);
    }
    return { kind: "run", json, command: { command: "list-users", ...(search !== undefined ? { search } : {}), ...(page ? { page } : {}) } };
  }
  if (name === "set-plan") {
    allowOnly();
    expectPositional(2, "<email> <plan>");
    const [email, plan] = positional as [string, string];
    // Which ids exist is the server's plans' to say (run.ts checks them once the settings are read).
    return { kind: "run", json, command: { command: "set-plan", email, plan } };
  }
  if ((EMAIL_COMMANDS as readonly string[]).includes(name)) {
    const command = name as EmailCommand;
    if (command === "delete-user") {
      allowOnly("yes");
      expectPositional(1, "<email> --yes");
      if (options.get("yes") !== true) {
        throw new UsageError(`delete-user removes ${positional[0]} and all their sites and files for good. Add --yes to confirm.`);
      }
    } else {
      allowOnly();
      expectPositional(1, "<email>");
    }
    return { kind: "run", json, command: { command, email: positional[0]! } };
  }
  throw new UsageError(`Unknown admin command "${name}".`);
}
