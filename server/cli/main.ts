// Entry point of `npm run berth -- admin <command>` (tsx runs it from the sources, so it works on
// a fresh clone without a build). See run.ts.
import { runCli } from "./run";

runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error("berth failed:", error);
    process.exitCode = 1;
  },
);
