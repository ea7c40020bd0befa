// How full the storage quota is, for the overview's bar and its caption.

/** Share of the quota in use, rounded, 0..100. */
export function usagePercent(used: number, quota: number): number {
  if (quota <= 0 || used <= 0) return 0;
  return Math.min(100, Math.round((used / quota) * 100));
}

/** "8%", or "<1%" when something is stored but rounds to nothing: "0%" would read as empty. */
export function usageLabel(used: number, quota: number): string {
  const percent = usagePercent(used, quota);
  return percent === 0 && used > 0 && quota > 0 ? "<1%" : `${percent}%`;
}

/** The bar's width: at least a sliver once anything is stored, so the bar never looks unused. */
export function usageBarWidth(used: number, quota: number): number {
  const percent = usagePercent(used, quota);
  return used > 0 && quota > 0 ? Math.max(1, percent) : 0;
}
