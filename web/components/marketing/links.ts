// Where every marketing link goes. The menus' entries have fixed names but no fixed targets; each
// one here lands on real content: a card or section of the landing page, or a section of /docs.
import { Activity, BookOpen, Code2, FileSearch, Globe, Lock, Newspaper, RotateCcw, Terminal, Trophy, type LucideIcon } from "lucide-react";
import { LANDING_TEXT } from "../../../common/texts";

export interface MarketingLink {
  label: string;
  to: string;
  description?: string;
  icon?: LucideIcon;
}

const [uptime, rollbacks, cdn, publishCheck, devTools] = LANDING_TEXT.nav.featureItems;
const [blog, caseStudies, knowledgeBase, apiReference] = LANDING_TEXT.nav.resourceItems;

/** One feature card on the landing page; the Features menu links to each by its id. */
export interface Feature {
  id: string;
  title: string;
  summary: string;
  body: string;
  icon: LucideIcon;
}

export const FEATURES: Feature[] = [
  {
    id: "uptime-guarantee",
    title: uptime,
    summary: "Publishing never takes a site offline",
    body: "Every deployment is an immutable snapshot, switched in atomically, so visitors never see a half-uploaded site. Add nodes when one machine is not enough.",
    icon: Activity,
  },
  {
    id: "one-click-rollbacks",
    title: rollbacks,
    summary: "Go back to any earlier deployment",
    body: "Each upload becomes a deployment with its own URL. If something breaks, roll back to any earlier one in a click, or restore a single file from it.",
    icon: RotateCcw,
  },
  {
    id: "cdn-integration",
    title: cdn,
    summary: "Cache-friendly delivery, worldwide",
    body: "Sites are served with the cache headers and validators that CDNs understand, so you can put any CDN in front of Berth and pages load fast wherever visitors are. The docs show how, purge after deploy included.",
    icon: Globe,
  },
  {
    // Says plainly what it is: a check of the files with rules, not anything learned.
    id: "publish-check",
    title: publishCheck,
    summary: "Broken links and paths found after every publish",
    body: "Each new version is checked as it goes live: links, images, scripts and styles that point at files it does not have, names that differ only in capital letters (fine on Windows and Mac, broken on a server), a missing index.html, links to your own computer and http:// resources an https page blocks. Each problem names its file and line; case mismatches and a missing index are fixed in one click.",
    icon: FileSearch,
  },
  {
    id: "developer-tools",
    title: devTools,
    summary: "Redirects, headers and SPA fallback",
    body: "_redirects and _headers files, SPA fallback, clean URLs and custom 404 pages work out of the box. The berth command deploys a folder from a terminal or CI, sending only what changed; API tokens, webhooks and an OpenAPI reference let scripts use Berth too.",
    icon: Terminal,
  },
  {
    id: "private-sharing",
    title: "Private links",
    summary: "Share with the people you choose",
    body: "Share a site through private links, each with its own expiry date, password and view limit, and revoke any link the moment you no longer need it.",
    icon: Lock,
  },
];

const featureMenu = FEATURES.filter((f) => (LANDING_TEXT.nav.featureItems as readonly string[]).includes(f.title));

export const FEATURE_LINKS: MarketingLink[] = featureMenu.map((f) => ({
  label: f.title,
  to: `/#${f.id}`,
  description: f.summary,
  icon: f.icon,
}));

export const RESOURCE_LINKS: MarketingLink[] = [
  { label: blog, to: "/docs#changelog", description: "What is new in Berth", icon: Newspaper },
  { label: caseStudies, to: "/docs#showcase", description: "What people publish with Berth", icon: Trophy },
  { label: knowledgeBase, to: "/docs", description: "Guides from first upload to self-hosting", icon: BookOpen },
  { label: apiReference, to: "/docs/api", description: "Every route of the API", icon: Code2 },
];

export const PRICING_LINK: MarketingLink = { label: LANDING_TEXT.nav.pricing, to: "/#pricing" };
export const DOCS_LINK: MarketingLink = { label: LANDING_TEXT.nav.docs, to: "/docs" };
export const CONTACT_LINK: MarketingLink = { label: LANDING_TEXT.nav.contact, to: "/contact" };

export const FOOTER_GROUPS: { title: string; links: MarketingLink[] }[] = [
  {
    title: LANDING_TEXT.footerGroups[0],
    links: [
      { label: LANDING_TEXT.nav.features, to: "/#features" },
      PRICING_LINK,
      { label: "FAQ", to: "/#faq" },
      { label: "Self-hosting", to: "/docs#self-hosting" },
    ],
  },
  { title: LANDING_TEXT.footerGroups[1], links: RESOURCE_LINKS.map(({ label, to }) => ({ label, to })) },
  {
    title: LANDING_TEXT.footerGroups[2],
    links: [
      { label: LANDING_TEXT.company.contact, to: "/contact" },
      { label: LANDING_TEXT.company.privacy, to: "/privacy" },
      { label: LANDING_TEXT.company.terms, to: "/terms" },
    ],
  },
];
