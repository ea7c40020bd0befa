// What an edge worker loads. Each worker is an isolate of its own, so every module its code imports
// is read, compiled and kept once more per worker. The worker has no database driver: dbProxy.ts
// runs its statements on the main thread. A value imported from db/client.ts (which imports PGlite
// and its migrator) once made every worker load PGlite's modules: 3.6 s of CPU to start two workers
// instead of 1.2 s, and about 10 MB more each. This bundles the worker's entry as the build does
// and lists what it imports from outside.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** The modules outside the bundle (packages and their subpaths; not Node's built-ins) that the worker imports. */
async function workerImports(): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(root, "server/edge/workers/thread.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
    outdir: path.join(root, "dist/test-worker-modules"),
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  return [...new Set(imports.filter((name) => !name.startsWith("node:")))].sort();
}

const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

describe("the edge worker's modules", () => {
  it("include no database driver, mailer, web framework or auth library", async () => {
    const imports = await workerImports();
    const packages = new Set(imports.map(packageOf));
    expect(packages).toContain("drizzle-orm"); // its query builder, through the proxy
    for (const heavy of ["@electric-sql/pglite", "pg", "nodemailer", "@aws-sdk/client-s3", "fastify", "better-auth"]) {
      expect(packages.has(heavy), `the edge worker imports ${heavy}`).toBe(false);
    }
    // Nor drizzle's drivers for them, or its migrator.
    expect(imports.filter((specifier) => /^drizzle-orm\/(pglite|node-postgres)/.test(specifier))).toEqual([]);
  }, 30_000);
});
