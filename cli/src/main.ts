// The berth command. `run` takes everything from its context, so tests run commands in-process;
// the process entry point at the bottom wires it to the real streams and exits with its code:
// 0 done, 1 could not be done (the reason on one line on stderr), 2 a mistyped command line
// (the reason and a usage hint).
import { commandHelp, commandNamed, mainHelp, parseCommandLine, parseVersion, usageLine } from "./args";
import { login } from "./commands/login";
import { logout, whoami } from "./commands/account";
import { deploy } from "./commands/deploy";
import { listDeploys, listSites, openSite } from "./commands/sites";
import { promote, rollback } from "./commands/versions";
import type { Context } from "./context";
import { ApiError, CliError, oneLine, UsageError } from "./errors";
import { createReporter } from "./progress";
import { CLI_VERSION } from "./version";

type Values = Record<string, string | boolean | undefined>;
const text = (values: Values, key: string) => values[key] as string | undefined;
const flag = (values: Values, key: string) => values[key] as boolean | undefined;

async function dispatch(ctx: Context, name: string, values: Values, args: string[]): Promise<void> {
  const server = text(values, "server");
  switch (name) {
    case "login":
      return login(ctx, { server, token: flag(values, "token") });
    case "logout":
      return logout(ctx);
    case "whoami":
      return whoami(ctx, { server, json: flag(values, "json") });
    case "deploy":
      await deploy(ctx, args[0], {
        server,
        site: text(values, "site"),
        create: text(values, "create"),
        draft: flag(values, "draft"),
        message: text(values, "message"),
        json: flag(values, "json"),
      });
      return;
    case "sites":
      return listSites(ctx, { server, json: flag(values, "json") });
    case "deploys":
      return listDeploys(ctx, args[0]!, { server, json: flag(values, "json") });
    case "rollback":
      return rollback(ctx, args[0]!, args[1] === undefined ? undefined : parseVersion(args[1], "rollback"), { server });
    case "promote":
      return promote(ctx, args[0]!, parseVersion(args[1]!, "promote"), { server });
    case "open":
      return openSite(ctx, args[0]!, { server });
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

/** A refusal of the token, with what to do about it and where the token came from. */
function explain(error: CliError): string {
  if (error instanceof ApiError && (error.code === "invalid_token" || error.code === "expired_token")) {
    return `${error.message}: run berth login again, or check BERTH_TOKEN`;
  }
  return error.message;
}

export async function run(argv: string[], ctx: Context): Promise<number> {
  let commandName: string | undefined;
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === "version") {
      ctx.stdout.write(`${CLI_VERSION}\n`);
      return 0;
    }
    if (parsed.kind === "help") {
      ctx.stdout.write((parsed.command ? commandHelp(parsed.command) : mainHelp(CLI_VERSION)) + "\n");
      return 0;
    }
    commandName = parsed.command.name;
    await dispatch(ctx, parsed.command.name, parsed.values, parsed.positionals);
    return 0;
  } catch (error) {
    ctx.reporter.endProgress();
    if (error instanceof UsageError) {
      const command = commandNamed(error.command ?? "");
      ctx.reporter.line(`berth: ${oneLine(error.message)}`);
      ctx.reporter.line(command ? `Usage: ${usageLine(command)} (berth ${command.name} --help for more)` : "Run berth --help for the commands.");
      return 2;
    }
    if (error instanceof CliError) {
      ctx.reporter.line(`berth${commandName ? ` ${commandName}` : ""}: ${oneLine(explain(error))}`);
      return 1;
    }
    // A bug, not a refusal: still one line, with where to look.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    ctx.reporter.line(`berth${commandName ? ` ${commandName}` : ""}: unexpected error: ${oneLine(message)} (BERTH_DEBUG=1 shows the stack)`);
    if (ctx.env.BERTH_DEBUG && error instanceof Error && error.stack) process.stderr.write(error.stack + "\n");
    return 1;
  }
}

export function processContext(): Context {
  return { env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, reporter: createReporter(process.stderr) };
}
