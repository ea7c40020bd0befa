import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "./server-flags.mjs";

/** Allocates short-lived objects until the young generation has grown as far as it may, then prints its size in MB. */
const GROW_NEW_SPACE = `
const v8 = require("node:v8");
let keep = [];
for (let i = 0; i < 3e6; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 2e5) keep = []; }
const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
console.log(space.space_size / 2 ** 20);
`;

describe("the server's node flags", () => {
  it("are accepted by this node and keep the young generation at 2 × 16 MB at most", () => {
    const newSpaceMb = Number(execFileSync(process.execPath, [...SERVER_NODE_FLAGS, "-e", GROW_NEW_SPACE], { encoding: "utf8" }));
    expect(newSpaceMb).toBeGreaterThan(0);
    expect(newSpaceMb).toBeLessThanOrEqual(32);
  });
});
