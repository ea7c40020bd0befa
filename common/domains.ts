// Custom domains (Pro): request and response schemas shared by the server and the dashboard.
//
//   GET    /api/domains                                → DomainListResponse (every domain of the user, newest first)
//   GET    /api/sites/:id/domains                      → DomainListResponse (the site's domains)
//   POST   /api/sites/:id/domains  AddDomainRequest    → 201 DomainResponse (Pro; provisioning starts at once)
//   POST   /api/domains/:domainId/check                → DomainResponse ("Check again": restarts provisioning)
//   DELETE /api/domains/:domainId                      → 204 (no longer served, at once)
//   GET    /internal/tls/ask?domain=                   → 200 for an active, verified domain; 404 otherwise
//                                                        (dashboard host only; for Caddy's on-demand TLS)
//
// Provisioning is a durable job: DNS check (the TXT record proves ownership; the CNAME or A/AAAA
// records point at Berth), then a 30 s wait so the records reach other resolvers, then the
// certificate step, then active. Each step polls up to 10 times, 5 s apart.
import { z } from "zod";

export const DOMAIN_STATUSES = ["pending", "dns_check", "certificate", "active", "failed"] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** How provisioning polls and waits: 10 tries per step, 5 s apart, and 30 s after DNS checks out. */
export const DOMAIN_MAX_TRIES = 10;
export const DOMAIN_TRY_INTERVAL_MS = 5_000;
export const DOMAIN_DNS_WAIT_MS = 30_000;

/** The TXT record's name is this label in front of the domain: `_berth.example.com`. */
export const DOMAIN_TXT_LABEL = "_berth";

/** Why provisioning failed, in the exact texts recorded on the domain and shown to its owner. */
export const DOMAIN_ERRORS = {
  dnsFailed: "Failed to set up DNS",
  validationTimedOut: "Domain validation timed out",
  addFailed: "Failed to add custom domain",
} as const;

export const DOMAIN_TEXT = {
  invalid: "Enter a domain name such as www.example.com",
  sitesDomain: "This domain is already served by Berth",
  taken: "This domain is already in use by another account",
  attached: "This domain is already attached to a site",
  added: "Domain added",
  addFailed: "Failed to add domain",
  removed: "Domain removed",
  removeFailed: "Failed to remove domain",
  checking: "Checking DNS again",
  alias: "Your DNS provider may call this record ALIAS, ANAME or CNAME flattening.",
  notFound: "Domain not found",
} as const;

/** The text shown for each status in the dashboard. */
export const DOMAIN_STATUS_LABELS: Record<DomainStatus, string> = {
  pending: "Pending",
  dns_check: "Checking DNS",
  certificate: "Issuing certificate",
  active: "Active",
  failed: "Failed",
};

const HOSTNAME_MAX = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as a user types it, made canonical: lower case, no scheme, path, port or trailing dot.
 * Returns undefined for anything that is not a hostname with at least two labels and a non-numeric
 * top-level label. Unicode names must be given in their ASCII (punycode) form.
 */
export function normalizeHostname(input: string): string | undefined {
  let host = input.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  host = host
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/\.$/, "");
  if (host.length === 0 || host.length > HOSTNAME_MAX) return undefined;
  const labels = host.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return undefined;
  return host;
}

/** An apex domain ("example.com") cannot have a CNAME; it points at the operator's addresses. */
export function isApexDomain(hostname: string): boolean {
  return hostname.split(".").length === 2;
}

export const AddDomainRequest = z.object({
  domain: z
    .string({ error: DOMAIN_TEXT.invalid })
    .refine((value) => normalizeHostname(value) !== undefined, DOMAIN_TEXT.invalid)
    .transform((value) => normalizeHostname(value)!)
    .describe("A hostname such as www.example.com, in its ASCII form; a scheme, path, port or trailing dot is dropped."),
});
export type AddDomainRequest = z.infer<typeof AddDomainRequest>;

/**
 * A DNS record the user must create at their DNS provider. ALIAS is given for an apex domain when
 * the operator has no fixed addresses (BERTH_PUBLIC_IPS): a CNAME-like record at the apex, which
 * providers call ALIAS, ANAME or CNAME flattening (DOMAIN_TEXT.alias).
 */
export const DnsRecord = z.object({
  type: z.enum(["CNAME", "ALIAS", "A", "AAAA", "TXT"]),
  name: z.string(),
  value: z.string(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const DomainResponse = z.object({
  id: z.string(),
  site_id: z.string(),
  site_name: z.string(),
  hostname: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  error: z.string().nullable().describe("The exact error text of the last failure (DOMAIN_ERRORS); null unless status is failed."),
  attempts: z.number().int().describe("Tries used by the current step, out of DOMAIN_MAX_TRIES."),
  records: z.array(DnsRecord).describe("What to create at the DNS provider: CNAME (or A/AAAA for an apex domain) and the TXT proof."),
  url: z.string().describe("http(s)://{hostname}/ once active."),
  verified_at: z.string().nullable(),
  activated_at: z.string().nullable(),
  created_at: z.string(),
});
export type DomainResponse = z.infer<typeof DomainResponse>;

export const DomainListResponse = z.object({ domains: z.array(DomainResponse) });
export type DomainListResponse = z.infer<typeof DomainListResponse>;

/** The dashboard's texts around domains beyond the API's own. */
export const DOMAIN_UI_TEXT = {
  checkFailed: "Failed to check the domain",
  noDomains: "No custom domains yet",
  noSites: "Create a site first, then add a domain to it.",
  siteRequired: "Choose a site",
} as const;

/** A domain whose provisioning job is still running: its status will change without a click. */
export function isProvisioning(status: DomainStatus): boolean {
  return status === "pending" || status === "dns_check" || status === "certificate";
}
