// A small index of the /docs page for the help page's search: each section, and the headings
// inside it, with the words people search for. Results link to the section's anchor; headings
// have none of their own, so they lead to their section. docsIndex.test.ts reads the sections'
// sources and fails when an id or heading here is no longer on the page.

export interface DocsEntry {
  /** The section's anchor on /docs. */
  section: string;
  /** The section's title. */
  sectionTitle: string;
  /** A heading inside the section, or undefined for the section itself. */
  heading?: string;
  /** Words and phrases that should find this entry besides its own titles. */
  keywords: string[];
}

export const DOCS_INDEX: readonly DocsEntry[] = [
  {
    section: "getting-started",
    sectionTitle: "Getting started",
    keywords: ["start", "new site", "publish", "upload", "html", "pdf", "subdomain", "address"],
  },
  {
    section: "getting-started",
    sectionTitle: "Getting started",
    heading: "Put a file online",
    keywords: ["drop a file", "publish", "deploy", "live", "html page", "pdf"],
  },
  {
    section: "getting-started",
    sectionTitle: "Getting started",
    heading: "Uploading a whole site",
    keywords: ["zip", "folder", "drop a folder", "choose a folder", "index.html", "static site", "assets", "dot-files"],
  },
  {
    section: "limits",
    sectionTitle: "Plans and limits",
    keywords: ["free", "pro", "plan", "quota", "storage", "file size", "upgrade", "limit", "versions kept"],
  },
  { section: "redirects-and-headers", sectionTitle: "Redirects and headers", keywords: ["netlify", "rules", "301", "302", "rewrite"] },
  {
    section: "redirects-and-headers",
    sectionTitle: "Redirects and headers",
    heading: "_redirects",
    keywords: ["redirect", "rewrite", "301", "302", "forward"],
  },
  {
    section: "redirects-and-headers",
    sectionTitle: "Redirects and headers",
    heading: "_headers",
    keywords: ["header", "cache-control", "cors", "content security policy"],
  },
  {
    section: "redirects-and-headers",
    sectionTitle: "Redirects and headers",
    heading: "Fallback pages and clean URLs",
    keywords: ["404", "custom 404", "not found page", "spa", "single page app", "200.html", "clean urls", "trailing slash"],
  },
  { section: "cli", sectionTitle: "Command line", keywords: ["cli", "terminal", "berth command", "npm", "deploy from the command line"] },
  { section: "cli", sectionTitle: "Command line", heading: "Sign in and deploy", keywords: ["login", "sign in", "deploy", "folder", "berth deploy"] },
  { section: "cli", sectionTitle: "Command line", heading: "Settings", keywords: ["config", "environment", "token", "BERTH_TOKEN"] },
  {
    section: "cli",
    sectionTitle: "Command line",
    heading: "Continuous deployment",
    keywords: ["ci", "github actions", "gitlab", "pipeline", "preview", "draft"],
  },
  { section: "self-hosting", sectionTitle: "Self-hosting", keywords: ["install", "run your own", "server", "docker", "node", "operator"] },
  {
    section: "self-hosting",
    sectionTitle: "Self-hosting",
    heading: "Where your data lives",
    keywords: ["data directory", "backup", "blobs", "files on disk"],
  },
  {
    section: "self-hosting",
    sectionTitle: "Self-hosting",
    heading: "Using PostgreSQL",
    keywords: ["database", "postgres", "DATABASE_URL", "pglite"],
  },
  {
    section: "self-hosting",
    sectionTitle: "Self-hosting",
    heading: "Configuration",
    keywords: ["settings", "environment variables", "smtp", "mail", "admin", "BERTH_"],
  },
  {
    section: "self-hosting",
    sectionTitle: "Self-hosting",
    heading: "Checking the setup",
    keywords: ["doctor", "health check", "diagnose", "troubleshoot", "permissions", "disk space", "smtp test"],
  },
  {
    section: "self-hosting",
    sectionTitle: "Self-hosting",
    heading: "Monitoring with Prometheus",
    keywords: ["metrics", "prometheus", "grafana", "monitoring", "alerts", "promql", "BERTH_METRICS_TOKEN"],
  },
  { section: "api", sectionTitle: "API reference", keywords: ["api", "token", "api token", "automation", "scripts", "openapi", "rest", "curl"] },
  { section: "webhooks", sectionTitle: "Webhooks", keywords: ["webhook", "notify", "callback", "integration", "events"] },
  { section: "webhooks", sectionTitle: "Webhooks", heading: "Events", keywords: ["deploy.succeeded", "deploy.failed", "rollback", "site deleted"] },
  { section: "webhooks", sectionTitle: "Webhooks", heading: "Checking the signature", keywords: ["hmac", "signature", "secret", "verify"] },
  { section: "webhooks", sectionTitle: "Webhooks", heading: "Retries", keywords: ["retry", "redeliver", "failed delivery"] },
  { section: "cdn", sectionTitle: "Putting a CDN in front", keywords: ["cdn", "cloudflare", "cache", "cdn purge", "origin", "speed"] },
  { section: "cdn", sectionTitle: "Putting a CDN in front", heading: "Setting it up", keywords: ["cloudflare", "fastly", "origin", "dns"] },
  { section: "changelog", sectionTitle: "Changelog", keywords: ["release", "news", "what's new", "version"] },
  { section: "showcase", sectionTitle: "Showcase", keywords: ["ideas", "examples", "portfolio", "resume", "landing page"] },
];

export interface DocsHit extends DocsEntry {
  href: string;
  /** What the result shows as its title: the heading, else the section's title. */
  title: string;
}

const normalise = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");

/**
 * Entries matching every word of `query`, best first: a word in the title counts most, then in
 * the section's title, then in a keyword (as a prefix of one of its words, so "redir" finds
 * redirects). An empty query finds nothing.
 */
export function searchDocs(query: string, limit = 8): DocsHit[] {
  const words = normalise(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored: { hit: DocsHit; score: number; index: number }[] = [];
  DOCS_INDEX.forEach((entry, index) => {
    const title = entry.heading ?? entry.sectionTitle;
    const fields = [normalise(title), normalise(entry.sectionTitle), normalise(entry.keywords.join(" | "))];
    let score = 0;
    for (const word of words) {
      const weight = weightOf(word, fields);
      if (weight === 0) return;
      score += weight;
    }
    scored.push({ hit: { ...entry, title, href: `/docs#${entry.section}` }, score: score + (entry.heading ? 0 : 0.25), index });
  });
  return scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((s) => s.hit);
}

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function weightOf(word: string, fields: string[]): number {
  const atWordStart = new RegExp(`(^|[^a-z0-9])${escape(word)}`);
  const weights = [3, 1.5, 1];
  for (let i = 0; i < fields.length; i++) if (atWordStart.test(fields[i]!)) return weights[i]!;
  return fields.some((f) => f.includes(word)) ? 0.5 : 0;
}
