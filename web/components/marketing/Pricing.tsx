// The landing page's plans: the server's own (GET /api/config: BERTH_PLANS_FILE's, or the built-in
// Free and Pro), with their price labels, limits and features as the server enforces them.
// "Unlimited" is said only of a limit the plan leaves unset.
import { Check } from "lucide-react";
import { Link } from "react-router";
import { formatPlanBytes, PLAN_FEATURES, versionsKept, type Plan, type PlanCatalog } from "../../../common/plans";
import { LANDING_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { usePublicConfig } from "../../lib/usePublicConfig";
import { Button } from "../ui/Button";
import { Skeleton } from "../ui/Skeleton";
import { Container, SectionHeading } from "./Section";

function planLines(plan: Plan): string[] {
  const items = [
    plan.storageBytes === null ? "Unlimited storage" : `${formatPlanBytes(plan.storageBytes)} storage`,
    plan.maxFileBytes === null ? "Unlimited size per file" : `Files up to ${formatPlanBytes(plan.maxFileBytes)} each`,
  ];
  if (plan.customDomains) items.push("Custom domains");
  if (plan.passwordProtection) items.push("Password-protected links");
  if (plan.expiringLinks) items.push("Expiring links");
  if (plan.privateSites) items.push("Private sites");
  const kept = versionsKept(plan);
  items.push(kept === null ? "File versioning: every version of every file" : `File history and restores from the last ${kept} versions`);
  if (plan.pointInTimeRecovery) items.push("Point-in-time recovery");
  return items;
}

/** A limit to compare with: none is more than any number. */
const measure = (limit: number | null) => limit ?? Infinity;

/** Whether `plan` gives everything `other` does, so its list can say "Everything in …". */
function includes(plan: Plan, other: Plan): boolean {
  return (
    PLAN_FEATURES.every((feature) => plan[feature] || !other[feature]) &&
    measure(plan.storageBytes) >= measure(other.storageBytes) &&
    measure(plan.maxFileBytes) >= measure(other.maxFileBytes) &&
    measure(versionsKept(plan)) >= measure(versionsKept(other))
  );
}

interface Tier {
  plan: Plan;
  features: string[];
  cta: { label: string; to: string };
  highlighted: boolean;
}

function tiersOf(catalog: PlanCatalog, backupDaily: boolean): Tier[] {
  // What every account gets whatever its plan; daily backups only where the server makes them.
  const extras = ["HTML, PDF and zip hosting", "Your own subdomain", "One-click rollbacks", ...(backupDaily ? ["Daily backups"] : [])];
  const { plans } = catalog;
  // "Most room" goes to the one plan with more storage than every other, if there is one.
  const most = Math.max(...plans.map((plan) => measure(plan.storageBytes)));
  const roomiest = plans.filter((plan) => measure(plan.storageBytes) === most);
  return plans.map((plan, i) => {
    const previous = plans[i - 1];
    return {
      plan,
      features: previous && includes(plan, previous) ? [`Everything in ${previous.name}`, ...planLines(plan)] : [...planLines(plan), ...extras],
      // Signing up costs nothing and needs no card; every other plan is arranged with the operator.
      cta: plan.id === catalog.defaultPlan ? { label: "Start for free", to: "/auth/signup" } : { label: "Contact us", to: "/contact" },
      highlighted: plans.length > 1 && roomiest.length === 1 && roomiest[0] === plan,
    };
  });
}

/** Side by side from the width where they fit; one under another below it. */
const GRIDS = ["max-w-md", "max-w-4xl md:grid-cols-2", "max-w-6xl lg:grid-cols-3", "max-w-6xl sm:grid-cols-2 xl:grid-cols-4"];

export function Pricing() {
  const config = usePublicConfig().data;
  const tiers = config ? tiersOf(config.plans, config.backupDaily) : undefined;
  // Unlimited storage somewhere leaves nothing more to ask for.
  const largest =
    config && config.plans.plans.every((plan) => plan.storageBytes !== null)
      ? Math.max(...config.plans.plans.map((plan) => plan.storageBytes ?? 0))
      : null;
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-16 py-20 sm:py-28">
      <Container>
        <SectionHeading id="pricing-title" eyebrow={LANDING_TEXT.nav.pricing} title="Start free, grow when you need to">
          {LANDING_TEXT.noCreditCard}. Every plan's limits are enforced by the server, so what you see is what you get.
        </SectionHeading>
        {!tiers && (
          <div className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2" aria-busy="true">
            <Skeleton className="h-[34rem] rounded-2xl" />
            <Skeleton className="h-[34rem] rounded-2xl" />
          </div>
        )}
        {tiers && (
          <div className={cn("mx-auto mt-14 grid gap-6", GRIDS[tiers.length - 1] ?? GRIDS.at(-1))}>
            {tiers.map((tier) => (
              <article
                key={tier.plan.id}
                aria-labelledby={`plan-${tier.plan.id}`}
                className={cn(
                  "relative flex flex-col rounded-2xl border bg-card p-7 shadow-xs sm:p-8",
                  tier.highlighted && "border-primary/40 shadow-xl shadow-primary/10 ring-1 ring-primary/20",
                )}
              >
                {tier.highlighted ? (
                  <span className="absolute -top-3 left-7 rounded-full bg-primary px-3 py-1 text-xs font-medium text-primary-foreground sm:left-8">
                    Most room
                  </span>
                ) : null}
                <h3 id={`plan-${tier.plan.id}`} className="text-lg font-semibold">
                  {tier.plan.name}
                </h3>
                {tier.plan.description && <p className="mt-1 text-sm text-muted-foreground">{tier.plan.description}</p>}
                <p className="mt-6 flex flex-wrap items-baseline gap-x-2">
                  <span className="text-4xl font-semibold tracking-tight">{tier.plan.price}</span>
                  {tier.plan.priceNote && <span className="text-sm text-muted-foreground">{tier.plan.priceNote}</span>}
                </p>
                <ul className="mt-6 flex-1 space-y-3 text-sm">
                  {tier.features.map((feature) => (
                    <li key={feature} className="flex gap-3">
                      <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                      {feature}
                    </li>
                  ))}
                </ul>
                <Button asChild size="lg" variant={tier.highlighted ? "default" : "outline"} className="mt-8 w-full">
                  <Link to={tier.cta.to}>{tier.cta.label}</Link>
                </Button>
              </article>
            ))}
          </div>
        )}
        {largest !== null && (
          <p className="mx-auto mt-8 max-w-xl text-center text-sm text-muted-foreground">
            Need more than {formatPlanBytes(largest)}?{" "}
            <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
              Talk to us
            </Link>
            .
          </p>
        )}
      </Container>
    </section>
  );
}
