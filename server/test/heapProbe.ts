// A script for `node -e` (or a Worker's code) that grows a V8 heap as a server does, for the tests
// of the server's heap flags. It allocates short-lived objects until the young generation has grown
// as far as it may, in batches that live through a few young collections before they go, which fill
// the old generation until a full collection. It leaves, in `young` and `old`, the largest sizes
// (bytes) the two spaces reached. `v8` must be in scope.
export const GROW_HEAP = `
let keep = [], young = 0, old = 0;
for (let i = 0; i < 3e6; i++) {
  keep.push({ i, s: "x" + i });
  if (keep.length > 2e5) keep = [];
  if (i % 1000 === 0) {
    const spaces = v8.getHeapSpaceStatistics();
    young = Math.max(young, spaces.find((s) => s.space_name === "new_space").space_size);
    old = Math.max(old, spaces.find((s) => s.space_name === "old_space").space_size);
  }
}
`;
