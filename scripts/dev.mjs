// `npm run dev`: rebuilds the dashboard on change and restarts the server on change.
import { spawn } from "node:child_process";
import { root } from "./source-hash.mjs";
import { withServerFlags } from "./server-flags.mjs";

const children = [
  spawn("npx", ["vite", "build", "--watch", "--mode", "development"], { cwd: root, stdio: "inherit" }),
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "server/main.ts"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_OPTIONS: withServerFlags(process.env.NODE_OPTIONS) },
  }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
