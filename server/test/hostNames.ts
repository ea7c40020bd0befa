// Host names of a chosen length, for the tests of the DNS length limits (253 for a name, 63 for a label).

/** A name of `length` characters under .localhost, in labels of at most 63. */
export function nameOf(length: number): string {
  const suffix = ".localhost";
  let name = "";
  while (name.length < length - suffix.length)
    name += (name ? "." : "") + "a".repeat(Math.min(63, length - suffix.length - name.length - (name ? 1 : 0)));
  return name + suffix;
}
