import { Link2, Rocket, UploadCloud } from "lucide-react";
import { Container, SectionHeading } from "./Section";

const STEPS = [
  {
    icon: UploadCloud,
    title: "Drop your file",
    body: "Upload an HTML page or a PDF, or drop a static site's folder (or a zip of it), which is served as a complete site.",
  },
  {
    icon: Rocket,
    title: "It's live",
    body: "Publishing takes a moment. Each site gets its own subdomain, and every upload is kept as a deployment.",
  },
  {
    icon: Link2,
    title: "Share the link",
    body: "Send the public address, or a private link with an expiry date, so only the right people see it.",
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="border-y bg-muted/40 py-20 sm:py-28">
      <Container>
        <SectionHeading id="how-title" eyebrow="How it works" title="From file to link in three steps" />
        <ol className="mt-14 grid gap-10 md:grid-cols-3 md:gap-8">
          {STEPS.map(({ icon: Icon, title, body }, index) => (
            <li key={title} className="relative text-center md:text-left">
              {index < STEPS.length - 1 ? (
                <span aria-hidden className="absolute left-16 right-0 top-6 hidden border-t border-dashed border-primary/30 md:block" />
              ) : null}
              <span className="relative mx-auto flex size-12 items-center justify-center rounded-full bg-background text-primary shadow-sm ring-1 ring-border md:mx-0">
                <Icon aria-hidden className="size-5" />
                <span className="absolute -right-1 -top-1 flex size-5 items-center justify-center rounded-full bg-primary text-[0.65rem] font-semibold text-primary-foreground">
                  {index + 1}
                </span>
              </span>
              <h3 className="mt-5 text-lg font-semibold tracking-tight">{title}</h3>
              <p className="mx-auto mt-2 max-w-xs text-sm leading-relaxed text-muted-foreground md:mx-0">{body}</p>
            </li>
          ))}
        </ol>
      </Container>
    </section>
  );
}
