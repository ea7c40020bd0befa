import { cn } from "../../lib/cn";

// A fixed palette keyed by the subdomain, so a site keeps its colour across pages and reloads.
const PALETTE = [
  "from-indigo-500 to-violet-500",
  "from-sky-500 to-cyan-500",
  "from-emerald-500 to-teal-500",
  "from-amber-500 to-orange-500",
  "from-rose-500 to-pink-500",
  "from-fuchsia-500 to-purple-500",
] as const;

function paletteIndex(key: string): number {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % PALETTE.length;
}

/** The site's initial on a coloured tile: tells sites apart at a glance in lists. */
export function SiteAvatar({ name, seed, className }: { name: string; seed: string; className?: string }) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? "?";
  return (
    <span
      className={cn(
        "flex size-10 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br text-base font-semibold text-white shadow-sm",
        PALETTE[paletteIndex(seed)],
        className,
      )}
      aria-hidden
    >
      {initial}
    </span>
  );
}
