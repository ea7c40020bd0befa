import { defineConfig } from "vitest/config";

// Browser and black-box tests against the built server (npm run build runs first). One file at a
// time: each starts its own Berth process with its own embedded database.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: "forks",
  },
});
