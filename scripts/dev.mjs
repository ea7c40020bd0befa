// `npm run dev`: rebuilds the dashboard on change and restarts the server on change.
import { spawn } from "node:child_process";
import { root } from "./source-hash.mjs";
import { SERVER_NODE_FLAGS } from "./server-flags.mjs";

const children = [
  spawn("npx", ["vite", "build", "--watch", "--mode", "development"], { cwd: root, stdio: "inherit" }),
  // tsx hands node flags on to node. Not through NODE_OPTIONS: node refuses most V8 flags there
  // (--liftoff-only among them) and would not start.
  spawn("npx", ["tsx", "watch", "--clear-screen=false", ...SERVER_NODE_FLAGS, "server/main.ts"], { cwd: root, stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
