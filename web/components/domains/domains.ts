// How a custom domain reads in the dashboard: its status badge's tone, the tries line, the
// order of its DNS records, and the form that adds one.
import { z } from "zod";
import {
  AddDomainRequest,
  DOMAIN_MAX_TRIES,
  DOMAIN_UI_TEXT,
  isProvisioning,
  type DnsRecord,
  type DomainResponse,
  type DomainStatus,
} from "../../../common/domains";

export type DomainTone = "muted" | "progress" | "success" | "failed";

export const DOMAIN_TONE: Record<DomainStatus, DomainTone> = {
  pending: "muted",
  dns_check: "progress",
  certificate: "progress",
  active: "success",
  failed: "failed",
};

/**
 * "Try 3 of 10" while a step polls, "Gave up after 10 tries" when it failed on tries, nothing
 * before the first try or once active.
 */
export function triesLabel(domain: Pick<DomainResponse, "status" | "attempts">): string | null {
  if (domain.attempts <= 0) return null;
  const attempts = Math.min(domain.attempts, DOMAIN_MAX_TRIES);
  if (isProvisioning(domain.status)) return `Try ${attempts} of ${DOMAIN_MAX_TRIES}`;
  if (domain.status === "failed") return `${attempts} of ${DOMAIN_MAX_TRIES} tries used`;
  return null;
}

/** The records in the order a person creates them: where the domain points, then the TXT proof. */
export function orderedRecords(records: readonly DnsRecord[]): DnsRecord[] {
  const rank = { CNAME: 0, ALIAS: 0, A: 1, AAAA: 2, TXT: 3 } as const;
  return [...records].sort((a, b) => rank[a.type] - rank[b.type]);
}

/** The sites a domain can be added to: those not marked for deletion. */
export function sitesForDomains<T extends { is_deleted: boolean }>(sites: readonly T[] | undefined): T[] {
  return (sites ?? []).filter((site) => !site.is_deleted);
}

/** Adding a domain: the server's rule for the name, and the site it is for (chosen or given). */
export const NewDomainForm = AddDomainRequest.extend({
  siteId: z.string().min(1, DOMAIN_UI_TEXT.siteRequired),
});
export type NewDomainFields = z.input<typeof NewDomainForm>;
export type NewDomainForm = z.infer<typeof NewDomainForm>;
