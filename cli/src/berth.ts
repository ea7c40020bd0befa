// The executable's entry point (cli/dist/berth.js once built): runs the command line and exits
// with its code once stdout and stderr have been written out.
import { processContext, run } from "./main";

// A closed pipe on stdout (`berth sites | head -1`) ends the process quietly, as other tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const code = await run(process.argv.slice(2), processContext());
// Nothing is left to do once run() has answered (every file the command writes is written
// synchronously, a browser it opens is a detached child), so the process exits as soon as its
// output is out instead of waiting for the event loop to drain: ending that way tears down the
// heap and the modules first, about 30 ms of every deploy's time.
let streams = 2;
const flushed = () => {
  streams -= 1;
  if (streams === 0) process.exit(code);
};
process.stdout.write("", flushed);
process.stderr.write("", flushed);
