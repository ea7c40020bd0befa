import { defineConfig } from "vitest/config";

// Unit tests beside the code, API tests against PGlite and PostgreSQL, and the berth CLI's tests. Browser tests have
// their own config in e2e/.
export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "common/**/*.test.ts", "web/**/*.test.ts", "web/**/*.test.tsx", "scripts/**/*.test.ts", "cli/**/*.test.ts"],
    globalSetup: ["server/test/globalSetup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
