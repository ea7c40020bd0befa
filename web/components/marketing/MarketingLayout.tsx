import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { MarketingFooter } from "./MarketingFooter";
import { MarketingNav } from "./MarketingNav";

// The router does not scroll on navigation. Marketing links point at anchors (/#pricing,
// /docs#api), so each navigation scrolls to its anchor, or to the top when it has none. Within
// a page the scroll is smooth; arriving from another page it is instant.
function useScrollToAnchor() {
  const { pathname, hash, key } = useLocation();
  const lastPath = useRef<string | null>(null);
  useEffect(() => {
    const samePage = lastPath.current === pathname;
    lastPath.current = pathname;
    const behavior: ScrollBehavior = samePage ? "smooth" : "instant";
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView({ behavior, block: "start" });
    else if (!samePage || !hash) window.scrollTo({ top: 0, behavior });
  }, [pathname, hash, key]);
}

/** Nav bar, page and footer shared by the landing, contact, docs and legal pages. */
export function MarketingLayout({ children }: { children: ReactNode }) {
  useScrollToAnchor();
  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip bg-background text-foreground">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <MarketingNav />
      <main id="main" className="flex-1">
        {children}
      </main>
      <MarketingFooter />
    </div>
  );
}
