import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { LAZY_BUILTINS_BANNER, lazyBuiltins } from "./lazy-builtins.mjs";
import { commonJsOnly, requireCommonJs } from "./require-commonjs.mjs";

describe("packages written only as CommonJS", () => {
  it("are told from ES modules and from packages that ship both", () => {
    // One CommonJS file for import and require alike.
    expect(commonJsOnly("tldts")).toBe(true);
    expect(commonJsOnly("fastify")).toBe(true);
    // ES modules.
    expect(commonJsOnly("zod")).toBe(false);
    expect(commonJsOnly("drizzle-orm")).toBe(false);
    // An ES module wrapper for import, CommonJS for require: two instances if both were loaded.
    expect(commonJsOnly("pg")).toBe(false);
    expect(commonJsOnly("no-such-package-here")).toBe(false);
  });

  it("are required by the server's bundle, lazily where they were imported lazily", async () => {
    const result = await build({
      stdin: {
        contents: [
          'import { getDomain } from "tldts";',
          'import { z } from "zod";',
          "export const domain = getDomain('a.example.com');",
          "export const schema = z.string();",
          'export const later = () => import("yauzl");',
        ].join("\n"),
        resolveDir: process.cwd(),
        loader: "ts",
      },
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      packages: "external",
      plugins: [lazyBuiltins, requireCommonJs],
      banner: { js: LAZY_BUILTINS_BANNER },
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('__berthRequire("tldts")');
    expect(code).not.toMatch(/from "tldts"/);
    expect(code).toMatch(/from "zod"/);
    // Required inside the function that imported it, not as the bundle starts.
    expect(code).toContain('__berthRequire("yauzl")');
    expect(code).toMatch(/later = \(\) => Promise\.resolve\(\)\.then\(\(\) => __toESM\(require_yauzl\(\)/);
  });
});
