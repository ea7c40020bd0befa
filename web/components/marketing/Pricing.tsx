import { Check } from "lucide-react";
import { Link } from "react-router";
import { PLANS, formatPlanBytes, type Plan } from "../../../common/plans";
import { LANDING_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { Container, SectionHeading } from "./Section";

function planFeatures(plan: Plan): string[] {
  const items = [`${formatPlanBytes(plan.storageBytes)} storage`, `Files up to ${formatPlanBytes(plan.maxFileBytes)} each`];
  if (plan.customDomains) items.push("Custom domains");
  if (plan.passwordProtection) items.push("Password-protected links");
  if (plan.expiringLinks) items.push("Expiring links");
  if (plan.privateSites) items.push("Private sites");
  if (plan.fileVersioning) items.push("File versioning");
  if (plan.pointInTimeRecovery) items.push("Point-in-time recovery");
  return items;
}

const FREE_EXTRAS = ["HTML, PDF and zip hosting", "Your own subdomain", "One-click rollbacks", "Daily backups"];

interface Tier {
  plan: Plan;
  price: string;
  cadence: string;
  pitch: string;
  features: string[];
  cta: { label: string; to: string };
  highlighted: boolean;
}

// Pro's price is the operator's to set, so the page asks visitors to get in touch rather than
// invent a figure.
const TIERS: Tier[] = [
  {
    plan: PLANS.free,
    price: "$0",
    cadence: "forever",
    pitch: "For personal pages, documents and quick shares.",
    features: [...planFeatures(PLANS.free), ...FREE_EXTRAS],
    cta: { label: "Start for free", to: "/auth/signup" },
    highlighted: false,
  },
  {
    plan: PLANS.pro,
    price: "Custom",
    cadence: "per account",
    pitch: "For teams and sites that need more room and control.",
    features: ["Everything in Free", ...planFeatures(PLANS.pro)],
    cta: { label: "Contact us", to: "/contact" },
    highlighted: true,
  },
];

export function Pricing() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-16 py-20 sm:py-28">
      <Container>
        <SectionHeading id="pricing-title" eyebrow={LANDING_TEXT.nav.pricing} title="Start free, grow when you need to">
          {LANDING_TEXT.noCreditCard}. Every plan's limits are enforced by the server, so what you see is what you get.
        </SectionHeading>
        <div className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
          {TIERS.map((tier) => (
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
              <p className="mt-1 text-sm text-muted-foreground">{tier.pitch}</p>
              <p className="mt-6 flex items-baseline gap-2">
                <span className="text-4xl font-semibold tracking-tight">{tier.price}</span>
                <span className="text-sm text-muted-foreground">{tier.cadence}</span>
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
        <p className="mx-auto mt-8 max-w-xl text-center text-sm text-muted-foreground">
          Need more than {formatPlanBytes(PLANS.pro.storageBytes)}? Enterprise storage goes up to unlimited.{" "}
          <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
            Talk to us
          </Link>
          .
        </p>
      </Container>
    </section>
  );
}
