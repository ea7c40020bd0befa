/** The spec's rule for the marketing bar: opaque once the page has scrolled more than 10 px. */
export const NAV_OPAQUE_AFTER_PX = 10;

export function isNavOpaque(scrollY: number): boolean {
  return scrollY > NAV_OPAQUE_AFTER_PX;
}
