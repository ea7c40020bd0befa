// The landing page's questions. The answers about plans and backups are the server's own (GET
// /api/config: its plans and whether it backs up daily), so they stay true to what it enforces.
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { PublicConfigResponse } from "../../../common/api";
import { formatPlanBytes, PLAN_FEATURES, versionsKept, type Plan, type PlanFeature } from "../../../common/plans";
import { LANDING_TEXT } from "../../../common/texts";
import { usePublicConfig } from "../../lib/usePublicConfig";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "../ui/Accordion";
import { Container, SectionHeading } from "./Section";

const code = (text: string) => <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em] text-foreground">{text}</code>;

interface Question {
  id: string;
  question: string;
  answer: ReactNode;
}

/** "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Each switch as the answers name it; file versioning and point-in-time recovery are said apart. */
const FEATURE_WORDS: Record<PlanFeature, string> = {
  customDomains: "a custom domain",
  passwordProtection: "password-protected links",
  expiringLinks: "expiring links",
  privateSites: "private sites",
  siteExpiry: "site expiry and go-live times",
  fileVersioning: "file versioning",
  pointInTimeRecovery: "point-in-time recovery",
};

const measure = (limit: number | null) => limit ?? Infinity;

function storageAnswer(plans: readonly Plan[]): string {
  return plans
    .map((plan, i) => {
      const amount = plan.storageBytes === null ? "unlimited storage" : `${formatPlanBytes(plan.storageBytes)}${i === 0 ? " of total storage" : ""}`;
      return `${plan.name} accounts get ${amount}.`;
    })
    .join(" ");
}

function fileSizeAnswer(plans: readonly Plan[]): string {
  const limits = plans.map((plan) =>
    plan.maxFileBytes === null
      ? `any size that fits the storage on the ${plan.name} plan`
      : `up to ${formatPlanBytes(plan.maxFileBytes)} on the ${plan.name} plan`,
  );
  return `A single file can be ${listed(limits)}.`;
}

/** What each plan adds over the one listed before it, then how far back each keeps versions. */
function plansAnswer(plans: readonly Plan[]): string {
  const adds = plans.slice(1).flatMap((plan, i) => {
    const previous = plans[i]!;
    const features = PLAN_FEATURES.filter((feature) => plan[feature] && !previous[feature]).map((feature) => FEATURE_WORDS[feature]);
    const larger = measure(plan.storageBytes) > measure(previous.storageBytes) || measure(plan.maxFileBytes) > measure(previous.maxFileBytes);
    if (features.length === 0) return larger ? [`${plan.name} has larger storage and file-size limits than ${previous.name}.`] : [];
    return [`${plan.name} adds ${listed(features)}${larger ? ", on top of the larger storage and file-size limits" : ""}.`];
  });
  const keeps = plans.map((plan) => {
    const kept = versionsKept(plan);
    const keeping = kept === null ? `${plan.name} keeps every version` : `${plan.name} keeps the last ${kept} versions of each site`;
    return plan.pointInTimeRecovery ? `${keeping} and can restore a whole site as it was at any moment` : keeping;
  });
  return [...adds, `Every plan can open, compare and restore files from the versions it keeps: ${listed(keeps)}.`].join(" ");
}

function backupAnswer(backupDaily: boolean): ReactNode {
  if (backupDaily) {
    return "Yes. Daily backups are included on every plan: the server backs up every site and file once a day and keeps the last seven days. If you run Berth yourself, copy its backups folder to another machine (rsync works well), since a backup on the same disk is lost with it.";
  }
  // Off on this node; another node of the same server may make them, so promise nothing either way.
  return (
    <>
      Ask the operator of this server, who decides how it is backed up. If you run Berth yourself, turn on its daily backups (
      {code("BERTH_BACKUP_DAILY")}) or write one whenever you like with {code("npm run berth -- backup")}, and copy them to another machine, since a
      backup on the same disk is lost with it.
    </>
  );
}

function questionsOf(config: PublicConfigResponse): Question[] {
  const { plans } = config.plans;
  const second = plans[1];
  return [
    { id: "storage", question: "How much storage do I get?", answer: storageAnswer(plans) },
    { id: "file-size", question: "How large can a single file be?", answer: fileSizeAnswer(plans) },
    ...(second
      ? [{ id: "plans", question: plans.length === 2 ? `What does ${second.name} add?` : "What do the other plans add?", answer: plansAnswer(plans) }]
      : []),
    { id: "backups", question: "Are my files backed up?", answer: backupAnswer(config.backupDaily) },
    ...STATIC_QUESTIONS,
  ];
}

const STATIC_QUESTIONS: Question[] = [
  {
    id: "file-types",
    question: "What can I host?",
    answer:
      "Single HTML pages, PDFs and whole static sites, along with their CSS, JavaScript and images (JPG, PNG and GIF). Drop the site's folder, or a zip of it, and it is served as a complete site.",
  },
  {
    id: "self-host",
    question: "Can I run Berth on my own server?",
    answer: (
      <>
        Yes. Berth is open source. With Node.js 20 or newer, clone the repository and run {code("npm install && npm start")}. It starts with an
        embedded database and needs nothing else; point {code("DATABASE_URL")} at PostgreSQL when you outgrow it. The{" "}
        <Link to="/docs#self-hosting" className="font-medium text-primary underline-offset-4 hover:underline">
          self-hosting guide
        </Link>{" "}
        has the details.
      </>
    ),
  },
  {
    id: "operator",
    question: "Who runs this Berth server?",
    answer: (
      <>
        This server is run by its operator, who sets the plans and answers messages. Reach them through the{" "}
        <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
          contact page
        </Link>
        .
      </>
    ),
  },
  {
    id: "credit-card",
    question: "Do I need a credit card to start?",
    answer: `No. ${LANDING_TEXT.noCreditCard}: create an account, confirm your e-mail and publish your first site.`,
  },
];

export function Faq() {
  const config = usePublicConfig().data;
  const questions = config ? questionsOf(config) : STATIC_QUESTIONS;
  return (
    <section id="faq" aria-labelledby="faq-title" className="scroll-mt-16 border-t bg-muted/40 py-20 sm:py-28">
      <Container className="grid grid-cols-1 gap-12 lg:grid-cols-[1fr_1.6fr] lg:gap-16">
        <SectionHeading id="faq-title" eyebrow="FAQ" title="Questions, answered" className="lg:mx-0 lg:max-w-sm lg:text-left">
          Plans, limits and running Berth yourself. Something missing?{" "}
          <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
            Ask us
          </Link>
          .
        </SectionHeading>
        <Accordion type="single" collapsible className="rounded-xl border bg-card px-5 shadow-xs sm:px-6">
          {questions.map(({ id, question, answer }) => (
            <AccordionItem key={id} value={id}>
              <AccordionTrigger>{question}</AccordionTrigger>
              <AccordionContent>{answer}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </Container>
    </section>
  );
}
