import { defineConfig } from "vitest/config";

// Crash-safety and atomic-deploy tests against the built server (npm run test:reliability builds
// first). One file at a time: each starts, kills and restarts Berth processes of its own, and the
// kill timings mean nothing on a machine that is busy with another file.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.reliability.test.ts"],
    fileParallelism: false,
    testTimeout: 10 * 60_000,
    hookTimeout: 2 * 60_000,
    pool: "forks",
  },
});
