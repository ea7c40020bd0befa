// The command line: which command, its flags and its arguments, with node:util's parseArgs in
// strict mode, so a mistyped flag is an error (exit 2) instead of being ignored.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors";

type Options = NonNullable<ParseArgsConfig["options"]>;

export interface CommandSpec {
  name: string;
  /** The arguments, as the usage line shows them. */
  args: string;
  summary: string;
  options: Options;
  /** What each option does, as --help lists it. */
  help: [string, string][];
  positionals: { min: number; max: number };
}

const SERVER: Options = { server: { type: "string" } };
const SERVER_HELP: [string, string] = ["--server URL", "the Berth server (else BERTH_SERVER, berth.json, or the one you signed in to)"];
const JSON_FLAG: Options = { json: { type: "boolean" } };

export const COMMANDS: CommandSpec[] = [
  {
    name: "login",
    args: "",
    summary: "sign in through the browser, or with a token from stdin",
    options: { ...SERVER, token: { type: "boolean" } },
    help: [SERVER_HELP, ["--token", "read an API token from stdin instead of opening a browser sign-in"]],
    positionals: { min: 0, max: 0 },
  },
  {
    name: "logout",
    args: "",
    summary: "forget the saved token",
    options: {},
    help: [],
    positionals: { min: 0, max: 0 },
  },
  {
    name: "whoami",
    args: "",
    summary: "show who the token acts for",
    options: { ...SERVER, ...JSON_FLAG },
    help: [SERVER_HELP, ["--json", "print the server's answer as JSON"]],
    positionals: { min: 0, max: 0 },
  },
  {
    name: "deploy",
    args: "[dir]",
    summary: "publish a folder (default: the current one) as a new version",
    options: {
      ...SERVER,
      site: { type: "string" },
      create: { type: "string" },
      draft: { type: "boolean" },
      message: { type: "string", short: "m" },
      ...JSON_FLAG,
    },
    help: [
      SERVER_HELP,
      ["--site SUBDOMAIN", "the site to deploy to (else BERTH_SITE or berth.json's site)"],
      ["--create NAME", "create a new site with this name and deploy to it"],
      ["--draft", "publish on the version's own address only; make it live later with berth promote"],
      ["-m, --message TEXT", "a note kept with the version"],
      ["--json", "print {site, version, url, draft, files, files_uploaded, bytes_uploaded, seconds}"],
    ],
    positionals: { min: 0, max: 1 },
  },
  {
    name: "sites",
    args: "",
    summary: "list your sites",
    options: { ...SERVER, ...JSON_FLAG },
    help: [SERVER_HELP, ["--json", "print the sites as JSON"]],
    positionals: { min: 0, max: 0 },
  },
  {
    name: "deploys",
    args: "SITE",
    summary: "list a site's versions, newest first",
    options: { ...SERVER, ...JSON_FLAG },
    help: [SERVER_HELP, ["--json", "print the versions as JSON"]],
    positionals: { min: 1, max: 1 },
  },
  {
    name: "rollback",
    args: "SITE [VERSION]",
    summary: "make an earlier version live again (default: the one before the live one)",
    options: SERVER,
    help: [SERVER_HELP],
    positionals: { min: 1, max: 2 },
  },
  {
    name: "promote",
    args: "SITE VERSION",
    summary: "make a draft version live",
    options: SERVER,
    help: [SERVER_HELP],
    positionals: { min: 2, max: 2 },
  },
  {
    name: "open",
    args: "SITE",
    summary: "open a site in the browser (and print its address)",
    options: SERVER,
    help: [SERVER_HELP],
    positionals: { min: 1, max: 1 },
  },
];

export type Parsed =
  | { kind: "help"; command?: CommandSpec }
  | { kind: "version" }
  | { kind: "command"; command: CommandSpec; values: Record<string, string | boolean | undefined>; positionals: string[] };

export function commandNamed(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

export function parseCommandLine(argv: string[]): Parsed {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" && rest[0] !== undefined ? commandNamed(rest[0]) : undefined;
    if (first === "help" && rest[0] !== undefined && !topic) throw new UsageError(`unknown command "${rest[0]}"`);
    return topic ? { kind: "help", command: topic } : { kind: "help" };
  }
  if (first === "--version" || first === "-v") return { kind: "version" };
  if (first.startsWith("-")) throw new UsageError(`unknown option ${first.split("=")[0]}`);
  const command = commandNamed(first);
  if (!command) throw new UsageError(`unknown command "${first}"`);

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...command.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseErrorText(error), command.name);
  }
  if (parsed.values.help === true) return { kind: "help", command };
  const { positionals } = parsed;
  if (positionals.length < command.positionals.min) {
    const missing = command.args.split(" ").filter((arg) => !arg.startsWith("["))[positionals.length];
    throw new UsageError(`missing ${missing ?? "argument"}`, command.name);
  }
  if (positionals.length > command.positionals.max)
    throw new UsageError(`unexpected argument "${positionals[command.positionals.max]}"`, command.name);
  const values: Record<string, string | boolean | undefined> = {};
  for (const [key, value] of Object.entries(parsed.values)) if (key !== "help") values[key] = value as string | boolean | undefined;
  return { kind: "command", command, values, positionals };
}

/** parseArgs' message, shortened to the part a person needs. */
function parseErrorText(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option ?? message}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return /argument missing/.test(message) ? `${option ?? "an option"} needs a value` : `${option ?? "an option"} takes no value`;
  }
  return message.split("\n")[0]!;
}

/** A VERSION argument: a whole number from 1. */
export function parseVersion(text: string, command: string): number {
  const bare = text.replace(/^v/i, "");
  if (!/^\d+$/.test(bare) || Number(bare) < 1) throw new UsageError(`"${text}" is not a version number (1, 2, 3…)`, command);
  return Number(bare);
}

export function usageLine(command: CommandSpec): string {
  return `berth ${command.name}${command.args ? ` ${command.args}` : ""}${Object.keys(command.options).length > 0 ? " [options]" : ""}`;
}

export function mainHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => `${c.name} ${c.args}`.length));
  return [
    `berth ${version}: deploy folders to a Berth server and manage its sites.`,
    "",
    "Usage: berth <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${`${c.name} ${c.args}`.padEnd(width)}  ${c.summary}`),
    "",
    "Settings come from flags, then BERTH_SERVER, BERTH_TOKEN and BERTH_SITE, then berth.json",
    '({"server", "site"}) in the deployed folder or the current one, then the sign-in saved by',
    "berth login. SITE is a site's subdomain.",
    "",
    "Run berth <command> --help for a command's options.",
  ].join("\n");
}

export function commandHelp(command: CommandSpec): string {
  const width = Math.max(0, ...command.help.map(([flag]) => flag.length));
  return [
    `Usage: ${usageLine(command)}`,
    "",
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.help.length > 0 ? ["", "Options:", ...command.help.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`)] : []),
  ].join("\n");
}
