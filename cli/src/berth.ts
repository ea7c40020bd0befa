// The executable's entry point (cli/dist/berth.js once built): runs the command line and exits
// with its code once stdout has been written out.
import { processContext, run } from "./main";

// A closed pipe on stdout (`berth sites | head -1`) ends the process quietly, as other tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const code = await run(process.argv.slice(2), processContext());
process.exitCode = code;
