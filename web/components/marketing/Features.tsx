import { FEATURES } from "./links";
import { Container, SectionHeading } from "./Section";

export function Features() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-16 py-20 sm:py-28">
      <Container>
        <SectionHeading id="features-title" eyebrow="Features" title="Everything a static site needs, nothing it doesn't">
          Upload, publish, share and roll back from one dashboard. No build pipeline, no servers to babysit.
        </SectionHeading>
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ id, title, body, icon: Icon }) => (
            <li
              key={id}
              id={id}
              className="group relative scroll-mt-24 rounded-xl border bg-card p-6 shadow-xs transition-[box-shadow,border-color] duration-200 hover:border-primary/30 hover:shadow-md target:border-primary/50 target:ring-4 target:ring-primary/10"
            >
              <span className="flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary ring-1 ring-primary/15 ring-inset">
                <Icon aria-hidden className="size-5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold tracking-tight">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{body}</p>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
