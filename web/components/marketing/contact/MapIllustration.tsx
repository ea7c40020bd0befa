import { ExternalLink, MapPin } from "lucide-react";
import { cn } from "../../../lib/cn";

// A drawn street plan rather than map tiles: the page makes no third-party requests, and the
// operator's address is shown as text over it. "Get directions" hands off to OpenStreetMap only
// when the visitor asks.
export function MapIllustration({ address, className }: { address: string | null; className?: string }) {
  return (
    <figure className={cn("relative overflow-hidden rounded-xl border bg-card shadow-xs", className)}>
      <svg
        viewBox="0 0 640 360"
        preserveAspectRatio="xMidYMid slice"
        className="block h-64 w-full sm:h-72"
        role="img"
        aria-label={address ? `Illustrated map marking ${address}` : "Illustrated map"}
      >
        <rect width="640" height="360" fill="oklch(0.975 0.006 265)" />
        <path d="M0 262 C 120 230, 210 300, 330 286 S 540 240, 640 268 V 360 H 0 Z" fill="oklch(0.93 0.045 240)" />
        <path d="M0 262 C 120 230, 210 300, 330 286 S 540 240, 640 268" fill="none" stroke="oklch(0.88 0.06 240)" strokeWidth="2" />
        <rect x="404" y="34" width="150" height="96" rx="14" fill="oklch(0.94 0.05 150)" />
        <circle cx="446" cy="74" r="10" fill="oklch(0.88 0.08 150)" />
        <circle cx="500" cy="96" r="14" fill="oklch(0.88 0.08 150)" />
        <circle cx="520" cy="58" r="8" fill="oklch(0.88 0.08 150)" />
        {[
          [40, 30, 110, 70],
          [40, 130, 110, 80],
          [180, 30, 140, 70],
          [180, 130, 60, 80],
          [260, 130, 60, 80],
          [404, 160, 150, 56],
          [580, 30, 80, 100],
          [580, 160, 80, 56],
        ].map(([x, y, w, h]) => (
          <rect key={`${x}-${y}`} x={x} y={y} width={w} height={h} rx="8" fill="white" stroke="oklch(0.92 0.01 265)" />
        ))}
        <g fill="none" strokeLinecap="round">
          <g stroke="oklch(0.9 0.012 265)" strokeWidth="18">
            <path d="M0 115 H 640" />
            <path d="M165 0 V 250" />
            <path d="M365 0 V 240" />
            <path d="M0 225 C 150 215, 250 236, 365 232 S 560 222, 640 230" />
          </g>
          <g stroke="white" strokeWidth="13">
            <path d="M0 115 H 640" />
            <path d="M165 0 V 250" />
            <path d="M365 0 V 240" />
            <path d="M0 225 C 150 215, 250 236, 365 232 S 560 222, 640 230" />
          </g>
          <path d="M165 250 V 115 H 320" stroke="var(--color-primary)" strokeWidth="4" strokeDasharray="2 9" opacity="0.7" />
        </g>
        <g transform="translate(320 115)">
          <circle r="34" fill="var(--color-primary)" opacity="0.1" />
          <circle r="18" fill="var(--color-primary)" opacity="0.18" />
          <path
            d="M0 6 C -13 -8, -15 -14, -15 -21 A 15 15 0 0 1 15 -21 C 15 -14, 13 -8, 0 6 Z"
            fill="var(--color-primary)"
            transform="translate(0 -4)"
          />
          <circle cy="-25" r="5.5" fill="white" />
        </g>
      </svg>
      {address ? (
        <figcaption className="absolute inset-x-3 bottom-3 flex items-center gap-3 rounded-lg border bg-background/95 p-3 text-sm shadow-md backdrop-blur sm:inset-x-4 sm:bottom-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
            <MapPin aria-hidden className="size-4" />
          </span>
          <span className="min-w-0 flex-1 font-medium">{address}</span>
          <a
            href={`https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex shrink-0 items-center gap-1 rounded-md text-xs font-medium text-primary hover:underline"
          >
            Directions
            <ExternalLink aria-hidden className="size-3.5" />
            <span className="sr-only">(opens OpenStreetMap in a new tab)</span>
          </a>
        </figcaption>
      ) : null}
    </figure>
  );
}
