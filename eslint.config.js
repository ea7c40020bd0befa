import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

// Import rules that say which way the layers point (see ARCHITECTURE.md, "What imports what").
const NO_EDGE = {
  group: ["**/edge", "**/edge/**"],
  message:
    "Only the composition root (server/compose.ts), start.ts, httpServer.ts and test support import server/edge/: the dashboard side must run without the edge. Move what both sides need out of server/edge/, or get the edge from test support.",
};
const NO_ROUTES = {
  group: ["../api", "../api/**", "../../api", "../../api/**", "../../../api/**"],
  message: "Services, jobs and repositories never import route modules (server/api/): routes call them, not the other way round.",
};
const NO_SERVICES = {
  group: ["../services/**", "../../services/**", "../../../services/**"],
  message: "Repositories hold SQL only; a rule that needs a service belongs in a service that calls the repository.",
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", "migrations/**", "cli/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["*.js", "scripts/*.mjs", "cli/bin/*.js"] }, tsconfigRootDir: import.meta.dirname },
      // Each side sees only its platform's globals, as in the TypeScript projects: Node's in the
      // server, the browser's in web/, neither in common/ (both sides import it).
      globals: {},
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/only-throw-error": "off",
    },
  },
  { files: ["server/**", "cli/**", "e2e/**", "bench/**", "scripts/**", "*.js", "*.ts"], languageOptions: { globals: globals.node } },
  { files: ["web/**"], languageOptions: { globals: globals.browser } },
  // The dashboard's unit tests run in Node (vitest); e2e drives a page, whose callbacks see the DOM.
  { files: ["web/**/*.test.ts", "web/**/*.test.tsx", "e2e/**"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ["web/**/*.tsx", "web/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    // The dashboard side (API, services, auth, worker) must build and run without the edge, so the
    // edge is wired in only by the composition root and the process around it; what both sides use
    // lives outside server/edge/ (http/, sites/, siteConfig/, auth/sitePasswords.ts).
    files: ["server/**/*.ts"],
    ignores: ["server/edge/**", "server/compose.ts", "server/start.ts", "server/httpServer.ts", "server/test/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_EDGE] }] },
  },
  {
    // The layers point one way: routes call services, services call repositories. A service or a
    // job that imported a route module would tie a rule to HTTP, and the worker and the CLI run
    // services with no request at all. (One block per layer: flat config replaces a rule's
    // options per file, so each block repeats the edge pattern.)
    files: ["server/services/**/*.ts", "server/jobs/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_EDGE, NO_ROUTES] }] },
  },
  {
    // Repositories hold SQL and nothing else; rules that span tables live in services, above them.
    files: ["server/db/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_EDGE, NO_ROUTES, NO_SERVICES] }] },
  },
  {
    // common/ is shared by the server and the dashboard's bundle, so it imports neither.
    files: ["common/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server", "**/server/**", "**/web", "**/web/**"],
              message: "common/ is imported by both the server and the dashboard, so it may import neither.",
            },
          ],
        },
      ],
    },
  },
  {
    // The dashboard reaches the server only over HTTP; what it shares with it is in common/.
    files: ["web/**/*.ts", "web/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server", "**/server/**"],
              message: "The dashboard runs in the browser and talks to the server over HTTP; share types and rules through common/.",
            },
          ],
        },
      ],
    },
  },
  {
    // The berth CLI is a package of its own, built into one file with no dependencies: Node's
    // built-ins, its own modules, and from common/ types only (erased by the build), except
    // common/folderDeploy.ts and common/format.ts, which import nothing, so that the CLI shares
    // their rules and wording. A value from elsewhere in common/ would bundle zod and the rest of
    // common/ into the CLI; a package would be a dependency every user installs. Its tests
    // (cli/test/) reach the server through server/test/.
    files: ["cli/**/*.ts", "cli/bin/*.js"],
    ignores: ["cli/**/*.test.ts", "cli/test/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server", "**/server/**", "**/web", "**/web/**", "**/test/**", "**/*.test", "**/*.test.*"],
              message: "The CLI talks to the server over HTTP; it shares types with it through common/ only, and never ships test code.",
            },
            {
              group: ["**/common/**", "!**/common/folderDeploy", "!**/common/format"],
              allowTypeImports: true,
              message:
                "cli/ takes only types from common/ (import type), values only from common/folderDeploy and common/format: a value from elsewhere would bundle zod and the rest of common/ into the CLI.",
            },
            {
              regex: "^(?!node:|\\.{1,2}/)",
              message: "The CLI has no runtime dependencies: import Node's built-ins as node:… and its own modules by relative path.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON bodies loosely; the assertions are what check their shape.
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**/*.ts", "server/test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // Test code stays out of what ships: a product module that imported test support would carry
    // test-only data and shortcuts into the server or the bundle. Test support lives under
    // server/test/; tests sit beside their code. This is typescript-eslint's copy of the rule, so
    // it adds to any core no-restricted-imports block (flat config replaces a rule's options per
    // file, it does not merge them).
    files: ["server/**/*.ts", "common/**/*.ts", "web/**/*.ts", "web/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "server/test/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [{ name: "vitest", message: "Only tests use vitest; production code must not depend on the test runner." }],
          patterns: [
            {
              group: ["**/test/**", "**/testing", "**/testing/**", "**/*.test", "**/*.test.*", "**/*.suite", "**/*.fixture"],
              message: "Production code must not import test code (server/test/, *.test, testing, suites, fixtures): it would ship with the product.",
            },
          ],
        },
      ],
    },
  },
  {
    // Numbers are written with common/format.ts's formatCount. In Node, the first number formatted
    // through ICU (toLocaleString) loads its locale data: about 5 MB that stay resident for the
    // life of a server that only meant to write "1,000" into an error text, and 10 ms of every
    // CLI command. The dashboard runs in a browser, where the reader's locale is the point.
    files: ["server/**/*.ts", "common/**/*.ts", "cli/**/*.ts"],
    ignores: ["**/*.test.ts", "server/test/**", "cli/test/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          property: "toLocaleString",
          message: "Write numbers with formatCount (common/format.ts): toLocaleString loads ICU's locale data into the process.",
        },
      ],
    },
  },
  { files: ["scripts/**/*.mjs", "*.js", "cli/bin/*.js"], ...tseslint.configs.disableTypeChecked },
);
