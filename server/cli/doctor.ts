// `npm run berth -- doctor`: checks a Berth setup the way it will be used, and says for each part
// ok, warning, problem (or skipped, and why), what is wrong and how to fix it. Exit codes: 0 when
// nothing is a problem, 1 when something is, 2 for a mistyped command line. The checks are in
// doctorChecks.ts.
import { EnvError, loadEnv } from "../env";
import { UsageError } from "./args";
import {
  checkBlobStore,
  checkCustomDomains,
  checkDatabase,
  checkDataDir,
  checkDiskSpace,
  checkSmtp,
  checkStartupFiles,
  describeSetup,
  type CheckResult,
  type CheckStatus,
} from "./doctorChecks";
import type { CliIo } from "./run";

export const DOCTOR_USAGE = `Usage: npm run berth -- doctor [--json]

Checks this Berth's setup with the same settings as the server (BERTH_DATA_DIR, DATABASE_URL, …):
  configuration       every setting, as start-up checks them, and the files they name
  data directory      its owner, that no other account may write in it, that Berth can write in it
  disk space          free space where the data directory is (a warning under 1 GB or 5 %)
  database            it answers and its migrations are this Berth's (nothing is applied)
  blob store          a probe object written, read back and deleted (files or the S3 bucket)
  SMTP                a connection and EHLO to BERTH_SMTP_URL (skipped when it is not set)
  custom-domain DNS   every active custom domain still leads to Berth

Each check says ok, warning, problem or skipped, with what is wrong and how to fix it. The exit
code is 1 when any check found a problem, else 0. --json prints the results as JSON.`;

export function isDoctorCommand(argv: readonly string[]): boolean {
  return argv[0] === "doctor";
}

function parseDoctorArgs(argv: readonly string[]): { help: boolean; json: boolean } {
  let json = false;
  for (const arg of argv.slice(1)) {
    if (arg === "--help" || arg === "-h" || arg === "help") return { help: true, json: false };
    if (arg === "--json") json = true;
    else throw new UsageError(`doctor does not take "${arg}".`);
  }
  return { help: false, json };
}

export async function runDoctorCli(argv: readonly string[], io: CliIo): Promise<number> {
  let options;
  try {
    options = parseDoctorArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${error.message}\n\n${DOCTOR_USAGE}\n`);
    return 2;
  }
  if (options.help) {
    io.stdout(`${DOCTOR_USAGE}\n`);
    return 0;
  }
  const results = await runChecks(io.env, options.json ? () => {} : (result) => io.stdout(formatResult(result)));
  if (options.json) io.stdout(`${JSON.stringify(results, null, 2)}\n`);
  else io.stdout(formatVerdict(results));
  return results.some((r) => r.status === "problem") ? 1 : 0;
}

/** Runs every check in turn, telling `each` of each result as it comes (a slow one shows where it is). */
export async function runChecks(source: Record<string, string | undefined>, each: (result: CheckResult) => void): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const add = (result: CheckResult) => {
    results.push(result);
    each(result);
  };
  let env;
  try {
    env = loadEnv(source, []);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    add({
      name: "configuration",
      status: "problem",
      summary: `Berth would not start: ${error.problems.length === 1 ? "a setting is" : `${error.problems.length} settings are`} wrong`,
      details: error.problems,
      fix: "correct these environment variables; README.md's Configuration lists each one",
    });
    add({ name: "the rest", status: "skipped", summary: "every other check needs valid settings" });
    return results;
  }
  add(checkStartupFiles(env) ?? { name: "configuration", status: "ok", summary: describeSetup(env) });
  add(checkDataDir(env.dataDir));
  add(checkDiskSpace(env.dataDir));
  for (const result of await checkDatabase(env, (database) => checkCustomDomains(env, database))) add(result);
  add(await checkBlobStore(env));
  add(await checkSmtp(env));
  return results;
}

const LABELS: Record<CheckStatus, string> = { ok: "ok", warning: "warning", problem: "PROBLEM", skipped: "skipped" };
const NAME_WIDTH = 19;
const INDENT = " ".repeat(2 + 8 + 1 + NAME_WIDTH + 1);

export function formatResult(result: CheckResult): string {
  const lines = [`  ${LABELS[result.status].padEnd(8)} ${result.name.padEnd(NAME_WIDTH)} ${result.summary}`];
  for (const detail of result.details ?? []) lines.push(`${INDENT}- ${detail}`);
  if (result.fix && result.status !== "ok") lines.push(`${INDENT}fix: ${result.fix}`);
  return `${lines.join("\n")}\n`;
}

export function formatVerdict(results: readonly CheckResult[]): string {
  const count = (status: CheckStatus) => results.filter((r) => r.status === status).length;
  const problems = count("problem");
  const warnings = count("warning");
  if (problems === 0 && warnings === 0) return "\nEverything checked is in order.\n";
  const parts = [
    problems > 0 ? `${problems} problem${problems === 1 ? "" : "s"}` : "",
    warnings > 0 ? `${warnings} warning${warnings === 1 ? "" : "s"}` : "",
  ];
  return `\n${parts.filter(Boolean).join(" and ")}: see the fixes above.${problems > 0 ? " Berth may not work until the problems are fixed." : ""}\n`;
}
