// The custom-domain provisioning job: DNS check, a 30 s wait (so the records have spread to other
// resolvers before a certificate is asked for), certificate, active, as a durable job whose state is
// the row itself. Each call takes the domains whose next
// step is due at `now`, runs that one step and writes when the next is due, so a restart resumes
// where it stopped and tests drive the clock by passing `now`.
//
//   pending/dns_check  TXT proof + pointer; up to 10 tries 5 s apart → verified, certificate in 30 s
//   certificate        Berth does not terminate TLS: Caddy's on-demand TLS asks /internal/tls/ask,
//                      which says yes once the domain is active. This step checks, with the same
//                      budget, that DNS still leads to Berth, then makes the domain active.
import { DOMAIN_DNS_WAIT_MS, DOMAIN_ERRORS, DOMAIN_MAX_TRIES, DOMAIN_TEXT, DOMAIN_TRY_INTERVAL_MS } from "../../common/domains";
import type { AppContext } from "../context";
import type { DnsLookup } from "../dns";
import {
  claimDueDomains,
  recordDomainStep,
  recordDomainVerified,
  setSiteDomainIfNone,
  subdomainsOfSites,
  type Domain,
  type DomainStep,
} from "../db/repositories/domains";
import { checkOwnershipAndPointer, checkPointer, type DnsCheck, type DomainDnsTarget } from "./checkDomainDns";
import { notifyDomainActive } from "./notifyDomainActive";
import { noticeDomainActive, noticeDomainFailed } from "./notifications/siteNotices";

export type ProvisionContext = Pick<AppContext, "db" | "env" | "events" | "mailer" | "log" | "urls">;

/** A claimed domain is this worker's for this long; if the worker dies, it is due again after. */
export const DOMAIN_LEASE_MS = 60_000;
/** Domains stepped at once; their DNS lookups run side by side. */
const BATCH = 20;

/** Runs the steps due at `now`, up to BATCH of them (the rest at the next call). Resolves to how many were claimed. */
export async function provisionDueDomains(ctx: ProvisionContext, dns: DnsLookup, now = new Date()): Promise<number> {
  const leaseUntil = new Date(now.getTime() + DOMAIN_LEASE_MS);
  const claimed = await claimDueDomains(ctx.db, now, leaseUntil, BATCH);
  if (claimed.length === 0) return 0;
  const subdomains = await subdomainsOfSites(ctx.db, [...new Set(claimed.map((d) => d.site_id))]);
  const steps = claimed.flatMap((domain) => {
    const subdomain = subdomains.get(domain.site_id);
    return subdomain === undefined ? [] : [new Step(ctx, dns, domain, subdomain, now, leaseUntil)];
  });
  await Promise.all(
    steps.map((step) =>
      step.run().catch((error: unknown) => ctx.log.error({ err: error, domainId: step.domainId }, "domain provisioning step failed")),
    ),
  );
  return claimed.length;
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

class Step {
  private readonly target: DomainDnsTarget;

  constructor(
    private readonly ctx: ProvisionContext,
    private readonly dns: DnsLookup,
    private readonly domain: Domain,
    private readonly subdomain: string,
    private readonly now: Date,
    private readonly leaseUntil: Date,
  ) {
    this.target = { hostname: domain.hostname, token: domain.verification_token, siteHost: ctx.urls.host(subdomain) };
  }

  get domainId(): string {
    return this.domain.id;
  }

  run(): Promise<void> {
    return this.domain.status === "certificate" ? this.certificate() : this.dnsCheck();
  }

  private async dnsCheck(): Promise<void> {
    const check = await checkOwnershipAndPointer(this.dns, this.target, this.ctx.env.publicIps);
    if (!check.ok) return this.retryOrFail("dns_check", check, DOMAIN_ERRORS.validationTimedOut);
    const verified = await recordDomainVerified(
      this.ctx.db,
      this.domain.id,
      this.leaseUntil,
      {
        status: "certificate",
        attempts: 0,
        error: null,
        verified_at: this.domain.verified_at ?? this.now,
        next_attempt_at: later(this.now, DOMAIN_DNS_WAIT_MS),
      },
      this.now,
    );
    // Another account proved the same name first: this claim can never be served.
    if (verified === "taken") return this.record({ status: "failed", error: DOMAIN_TEXT.taken, next_attempt_at: null });
    this.emit(verified);
  }

  private async certificate(): Promise<void> {
    const check = await checkPointer(this.dns, this.target, this.ctx.env.publicIps);
    if (!check.ok) return this.retryOrFail("certificate", check, DOMAIN_ERRORS.addFailed);
    const { ctx, domain, now } = this;
    const activated = await ctx.db.transaction(async (tx) => {
      const row = await recordDomainStep(
        tx,
        domain.id,
        this.leaseUntil,
        { status: "active", attempts: 0, error: null, next_attempt_at: null, activated_at: now },
        now,
      );
      return row && { row, siteChanged: await setSiteDomainIfNone(tx, row.site_id, row.hostname) };
    });
    if (!activated) return;
    this.emit(activated.row);
    if (activated.siteChanged) ctx.events.emit("site", { userId: domain.user_id, siteId: domain.site_id, subdomain: this.subdomain });
    // Once per domain: a domain that was active before (then failed and was checked again) is not news.
    if (domain.activated_at === null) {
      await noticeDomainActive(ctx, { siteId: domain.site_id, hostname: domain.hostname }).catch((error: unknown) =>
        ctx.log.error({ err: error, domainId: domain.id }, "could not add the domain-active notice"),
      );
      await notifyDomainActive(ctx, { siteId: domain.site_id, domain: domain.hostname }).catch((error: unknown) =>
        ctx.log.error({ err: error, domainId: domain.id }, "could not send the domain-active mail"),
      );
    }
  }

  /** Another try in 5 s, or, after the 10th, failed with the step's exact error text (DOMAIN_ERRORS), shown on the domain. */
  private retryOrFail(status: "dns_check" | "certificate", check: DnsCheck & { ok: false }, timedOut: string): Promise<void> {
    const attempts = this.domain.attempts + 1;
    if (attempts < DOMAIN_MAX_TRIES) {
      return this.record({ status, attempts, next_attempt_at: later(this.now, DOMAIN_TRY_INTERVAL_MS) });
    }
    // When the resolver itself failed on the last try, DNS could not be checked at all.
    const error = check.resolverFailed ? DOMAIN_ERRORS.dnsFailed : timedOut;
    return this.record({ status: "failed", attempts, error, next_attempt_at: null });
  }

  private async record(step: DomainStep): Promise<void> {
    const row = await recordDomainStep(this.ctx.db, this.domain.id, this.leaseUntil, step, this.now);
    this.emit(row);
    // Only the step that recorded the failure (its lease still held) tells the owner.
    if (row?.status === "failed") {
      await noticeDomainFailed(this.ctx, { siteId: row.site_id, hostname: row.hostname, error: row.error }).catch((error: unknown) =>
        this.ctx.log.error({ err: error, domainId: row.id }, "could not add the domain-failed notice"),
      );
    }
  }

  /** Open dashboards and the edge's domain registry hear of every change; nothing when the claim was lost. */
  private emit(row: Domain | undefined): void {
    if (!row) return;
    this.ctx.events.emit("domain", { userId: row.user_id, siteId: row.site_id, domainId: row.id, hostname: row.hostname, status: row.status });
  }
}
