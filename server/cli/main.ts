// Entry point of `npm run berth -- admin <command>`, `backup`, `restore` and `doctor` (tsx runs it
// from the sources, so it works on a fresh clone without a build). See run.ts, backup.ts and doctor.ts.
import { runBackupCli } from "./backup";
import { isBackupCommand } from "./backupArgs";
import { isDoctorCommand, runDoctorCli } from "./doctor";
import { restrictUmask } from "../privateFiles";
import { runCli } from "./run";

// The CLI may open the data directory itself (no server running), restore into one or write a
// backup: what it creates is this user's alone, like the server's.
restrictUmask();
const argv = process.argv.slice(2);
const io = {
  env: process.env,
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};

(isBackupCommand(argv) ? runBackupCli(argv, io) : isDoctorCommand(argv) ? runDoctorCli(argv, io) : runCli(argv, io)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error("berth failed:", error);
    process.exitCode = 1;
  },
);
