import { Link } from "react-router";
import { LANDING_TEXT } from "../../../common/texts";
import { AuthActions } from "./AuthActions";
import { CONTACT_LINK, DOCS_LINK, FEATURE_LINKS, PRICING_LINK, RESOURCE_LINKS, type MarketingLink } from "./links";

function Group({ title, links }: { title: string; links: MarketingLink[] }) {
  return (
    <div>
      <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wider text-muted-foreground">{title}</p>
      <ul>
        {links.map(({ label, to, icon: Icon }) => (
          <li key={label}>
            <Link to={to} className="flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium hover:bg-accent">
              {Icon ? <Icon aria-hidden className="size-4 text-primary" /> : null}
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The phone menu: every desktop entry, with the dropdowns laid out as groups. */
export function MobileNavPanel({ id }: { id: string }) {
  return (
    <nav id={id} aria-label="Main" className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-b bg-background px-5 pb-6 pt-2 shadow-lg md:hidden">
      <div className="flex flex-col gap-5">
        <Group title={LANDING_TEXT.nav.features} links={FEATURE_LINKS} />
        <ul className="border-y py-2">
          {[PRICING_LINK, DOCS_LINK, CONTACT_LINK].map(({ label, to }) => (
            <li key={label}>
              <Link to={to} className="block rounded-md px-3 py-2.5 text-sm font-medium hover:bg-accent">
                {label}
              </Link>
            </li>
          ))}
        </ul>
        <Group title={LANDING_TEXT.nav.resources} links={RESOURCE_LINKS} />
        <AuthActions stacked />
      </div>
    </nav>
  );
}
