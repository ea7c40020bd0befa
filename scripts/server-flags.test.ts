import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { GROW_HEAP } from "../server/test/heapProbe";
import { SERVER_NODE_FLAGS } from "./server-flags.mjs";

/** Prints the young generation's largest size, in MB, under the given flags. */
const GROW_NEW_SPACE = `const v8 = require("node:v8"); ${GROW_HEAP} console.log(young / 2 ** 20);`;

describe("the server's node flags", () => {
  it("are accepted by this node and keep the young generation at 2 × 8 MB at most", () => {
    const newSpaceMb = Number(execFileSync(process.execPath, [...SERVER_NODE_FLAGS, "-e", GROW_NEW_SPACE], { encoding: "utf8" }));
    expect(newSpaceMb).toBeGreaterThan(0);
    // Node 24's V8 keeps 3–5 MB more beside the two semi-spaces.
    expect(newSpaceMb).toBeLessThanOrEqual(21);
  });
});

/**
 * A small WebAssembly function called from a hot loop, which V8 moves to its optimizing compiler
 * unless told otherwise; prints which compiler's code the function runs.
 * (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
 */
const HOT_WASM = `
const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,7,1,96,2,127,127,1,127,3,2,1,0,7,7,1,3,97,100,100,0,0,10,9,1,7,0,32,0,32,1,106,11]);
const { add } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
let sum = 0;
const end = Date.now() + Number(process.argv[1]) * 1000;
// The optimizing compile runs in the background: call until it lands, or for the given seconds at most.
while (!%IsTurboFanFunction(add) && Date.now() < end) for (let i = 0; i < 1e6; i++) sum = add(sum, 1) | 0;
console.log(%IsTurboFanFunction(add) ? "optimized" : %IsLiftoffFunction(add) ? "baseline" : "other");
`;

describe("WebAssembly under the server's flags", () => {
  const tierOf = (flags: readonly string[], seconds: number) =>
    execFileSync(process.execPath, [...flags, "--allow-natives-syntax", "-e", HOT_WASM, String(seconds)], { encoding: "utf8" }).trim();

  it("stays on the baseline compiler, which the embedded database's peak memory depends on", () => {
    // The probe itself: without the flags, the hot function is optimized. It stops once it is, so
    // a generous wait costs a loaded machine time, not a quiet one.
    expect(tierOf([], 20)).toBe("optimized");
    expect(tierOf(SERVER_NODE_FLAGS, 3)).toBe("baseline");
  }, 40_000);
});
