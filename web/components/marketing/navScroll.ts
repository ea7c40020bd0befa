/** The marketing bar turns opaque once the page has scrolled more than 10 px, so text passing under it stays readable. */
export const NAV_OPAQUE_AFTER_PX = 10;

export function isNavOpaque(scrollY: number): boolean {
  return scrollY > NAV_OPAQUE_AFTER_PX;
}
