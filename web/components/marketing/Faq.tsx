import type { ReactNode } from "react";
import { Link } from "react-router";
import { PLANS, formatPlanBytes } from "../../../common/plans";
import { LANDING_TEXT } from "../../../common/texts";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "../ui/Accordion";
import { Container, SectionHeading } from "./Section";

const free = PLANS.free;
const pro = PLANS.pro;

const code = (text: string) => <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em] text-foreground">{text}</code>;

const QUESTIONS: { id: string; question: string; answer: ReactNode }[] = [
  {
    id: "storage",
    question: "How much storage do I get?",
    answer: `Free accounts get ${formatPlanBytes(free.storageBytes)} of total storage. Premium plans start at ${formatPlanBytes(pro.storageBytes)} and go up to unlimited storage for enterprise.`,
  },
  {
    id: "file-size",
    question: "How large can a single file be?",
    answer: `A single file can be up to ${formatPlanBytes(free.maxFileBytes)} on the free plan and up to ${formatPlanBytes(pro.maxFileBytes)} on premium.`,
  },
  {
    id: "premium",
    question: "What does premium add?",
    answer:
      "Premium adds a custom domain, password-protected and expiring links, file versioning and point-in-time recovery, on top of the larger storage and file-size limits.",
  },
  {
    id: "backups",
    question: "Are my files backed up?",
    answer: "Yes. Daily backups are included on every plan, free accounts too.",
  },
  {
    id: "file-types",
    question: "What can I host?",
    answer:
      "Single HTML pages, PDFs and zipped static sites, along with their CSS, JavaScript and images (JPG, PNG and GIF). A zip is unpacked and served as a complete site.",
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
          {QUESTIONS.map(({ id, question, answer }) => (
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
