// Entry point of `npm run berth -- admin <command>`, `backup` and `restore` (tsx runs it from the
// sources, so it works on a fresh clone without a build). See run.ts and backup.ts.
import { runBackupCli } from "./backup";
import { isBackupCommand } from "./backupArgs";
import { runCli } from "./run";

const argv = process.argv.slice(2);
const io = {
  env: process.env,
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};

(isBackupCommand(argv) ? runBackupCli(argv, io) : runCli(argv, io)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error("berth failed:", error);
    process.exitCode = 1;
  },
);
