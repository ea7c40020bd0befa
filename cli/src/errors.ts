// How a command fails. The process prints the message as one line on stderr and exits with the
// error's code: 1 when the thing could not be done, 2 when the command line was mistyped (with a
// hint at the usage), so a script can tell its own mistake from a failed deploy.
export class CliError extends Error {
  readonly exitCode: 1 | 2 = 1;
}

export class UsageError extends CliError {
  override readonly exitCode = 2;
  constructor(
    message: string,
    /** The command whose usage to point at ("deploy"), or undefined for berth's own. */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** The server answered with an error: its status, its code and its message (already one line). */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One line, whatever the message held: a multi-line server message would break a log's lines. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
