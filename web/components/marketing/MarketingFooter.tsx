import { Link } from "react-router";
import { PRODUCT_NAME } from "../../../common/texts";
import { usePublicConfig } from "../../lib/usePublicConfig";
import { BerthLogo } from "../ui/BerthLogo";
import { ContactLinks, contactLines } from "./ContactLines";
import { FOOTER_GROUPS } from "./links";
import { Container } from "./Section";

// No social icons (GitHub, Twitter, LinkedIn, Facebook): a Berth server belongs to its operator,
// whose accounts we do not know, so the footer leaves them out rather than show dead links.
export function MarketingFooter() {
  const { data: config } = usePublicConfig();
  const lines = contactLines(config);
  return (
    <footer className="border-t bg-muted/40">
      <Container className="py-14 sm:py-16">
        <div className="grid gap-10 md:grid-cols-[1.4fr_repeat(3,1fr)] md:gap-8">
          <div className="max-w-xs">
            <BerthLogo />
            <p className="mt-4 text-sm leading-relaxed text-muted-foreground">
              One-click hosting for HTML files, PDFs and zipped static sites. Open source and self-hostable.
            </p>
            {lines.length > 0 ? <ContactLinks lines={lines} className="mt-6" /> : null}
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-3 md:col-span-3">
            {FOOTER_GROUPS.map((group) => (
              <nav key={group.title} aria-labelledby={`footer-${group.title}`}>
                <h2 id={`footer-${group.title}`} className="text-sm font-semibold">
                  {group.title}
                </h2>
                <ul className="mt-4 space-y-3 text-sm">
                  {group.links.map(({ label, to }) => (
                    <li key={label}>
                      <Link to={to} className="text-muted-foreground transition-colors hover:text-foreground">
                        {label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
          </div>
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t pt-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {new Date().getFullYear()} {PRODUCT_NAME}. Open source under the MIT license.
          </p>
          <p>Made for people who just want their files online.</p>
        </div>
      </Container>
    </footer>
  );
}
