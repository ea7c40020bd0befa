import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { Menu, X } from "lucide-react";
import { LANDING_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { AuthActions } from "./AuthActions";
import { BerthLogo } from "../ui/BerthLogo";
import { MobileNavPanel } from "./MobileNavPanel";
import { NavDropdown, navItemClass } from "./NavDropdown";
import { isNavOpaque } from "./navScroll";
import { CONTACT_LINK, DOCS_LINK, FEATURE_LINKS, PRICING_LINK, RESOURCE_LINKS } from "./links";

function useScrolledPastThreshold(): boolean {
  const [opaque, setOpaque] = useState(() => typeof window !== "undefined" && isNavOpaque(window.scrollY));
  useEffect(() => {
    const update = () => setOpaque(isNavOpaque(window.scrollY));
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  return opaque;
}

export function MarketingNav() {
  const scrolled = useScrolledPastThreshold();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  // Any navigation, including to an anchor on the same page, closes the phone menu.
  useEffect(() => setMenuOpen(false), [location.key]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => event.key === "Escape" && setMenuOpen(false);
    const closeOnDesktop = () => window.innerWidth >= 768 && setMenuOpen(false);
    window.addEventListener("keydown", closeOnEscape);
    window.addEventListener("resize", closeOnDesktop);
    return () => {
      window.removeEventListener("keydown", closeOnEscape);
      window.removeEventListener("resize", closeOnDesktop);
    };
  }, [menuOpen]);

  const opaque = scrolled || menuOpen;
  return (
    <>
      <header
        data-state={opaque ? "opaque" : "transparent"}
        className={cn(
          "fixed inset-x-0 top-0 z-40 border-b transition-[background-color,border-color,box-shadow] duration-200",
          opaque ? "border-border bg-background/90 shadow-sm shadow-foreground/[0.03] backdrop-blur-lg" : "border-transparent bg-transparent",
          menuOpen && "bg-background",
        )}
      >
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-4 px-5 sm:px-6 lg:px-8">
          <BerthLogo />

          <nav aria-label="Main" className="ml-2 hidden items-center gap-0.5 md:flex lg:ml-6 lg:gap-1">
            <NavDropdown label={LANDING_TEXT.nav.features} links={FEATURE_LINKS} />
            <Link to={PRICING_LINK.to} className={navItemClass}>
              {PRICING_LINK.label}
            </Link>
            <NavLink to={DOCS_LINK.to} className={navItemClass}>
              {DOCS_LINK.label}
            </NavLink>
            <NavDropdown label={LANDING_TEXT.nav.resources} links={RESOURCE_LINKS} />
            <NavLink to={CONTACT_LINK.to} className={navItemClass}>
              {CONTACT_LINK.label}
            </NavLink>
          </nav>

          <AuthActions className="ml-auto hidden md:flex" />

          <Button
            variant="ghost"
            size="icon"
            className="ml-auto md:hidden [&_svg]:size-5"
            aria-expanded={menuOpen}
            aria-controls="marketing-mobile-nav"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
          </Button>
        </div>
        {menuOpen ? <MobileNavPanel id="marketing-mobile-nav" /> : null}
      </header>
      {/* Outside the header: its backdrop-filter would make it the box a fixed child is placed in. */}
      {menuOpen ? (
        <div aria-hidden className="fixed inset-0 z-30 bg-foreground/25 backdrop-blur-[2px] md:hidden" onClick={() => setMenuOpen(false)} />
      ) : null}
    </>
  );
}
