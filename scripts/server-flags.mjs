// The Node flags Berth's server process runs with, given by every launcher: `npm start`, `npm run
// dev`, and the tests and benches that start the built server. V8 reads them only when it creates
// an isolate, so the process cannot set them on itself.
//
// --max-semi-space-size: V8 sizes the young generation from the machine's memory. Node 20 let it
// grow to 2 × 16 MB; Node 24 lets it grow to 2 × 64 MB (128 MB on a 24 GB machine), and the pages
// stay resident once touched: Berth idled 110–150 MB higher on Node 24 for that alone. At 2 × 16 MB
// the main thread still often held 32 MB of young generation, and V8's pool of freed pages beside
// it, while edge workers served: the edge bench's peak with two workers was 306–405 MiB over six
// starts, 302–337 MiB at 2 × 8 MB, with the single thread serving as fast (bench/README.md). The
// edge workers set the same size again for themselves (edge/workers/pool.ts).
//
// --liftoff-only: the embedded database (PGlite) is PostgreSQL compiled to WebAssembly. Node 24's
// optimizing WebAssembly compiler needs about 550 MB for a moment to compile one of its hottest
// functions, a second or so after start-up: Berth then peaked at 750 MB where it otherwise stays
// under 260 MB, enough to kill it on a 512 MB server. Node 20's compiler did not. With the baseline
// compiler only, the embedded database's statements take 20–35 % longer (a redeploy's API calls
// 123 → 150 ms, a first deploy of 1,000 files 590 → 811 ms); on PostgreSQL nothing changes.
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=8", "--liftoff-only"];
