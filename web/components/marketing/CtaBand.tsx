import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { LANDING_TEXT } from "../../../common/texts";
import { useSession } from "../../lib/session";
import { Button } from "../ui/Button";
import { Container } from "./Section";

export function CtaBand() {
  const { user } = useSession();
  return (
    <section aria-labelledby="cta-title" className="py-20 sm:py-24">
      <Container>
        <div className="relative isolate overflow-hidden rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl shadow-primary/20 sm:px-12 sm:py-16">
          <div
            aria-hidden
            className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_60%_80%_at_100%_0%,rgb(255_255_255/0.22),transparent),radial-gradient(ellipse_50%_70%_at_0%_100%,rgb(0_0_0/0.18),transparent)]"
          />
          <h2 id="cta-title" className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Your next site is one upload away
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-primary-foreground/80">
            Create an account, drop a file, share the link. {LANDING_TEXT.noCreditCard}.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg" variant="secondary" className="h-12 bg-white px-6 text-primary hover:bg-white/90">
              <Link to={user ? "/dashboard" : "/auth/signup"}>
                {user ? "Go to your sites" : "Get started free"} <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button
              asChild
              size="lg"
              variant="outline"
              className="h-12 border-white/30 bg-white/5 px-6 text-primary-foreground shadow-none hover:bg-white/15 hover:text-primary-foreground"
            >
              <Link to="/docs">Read the docs</Link>
            </Button>
          </div>
        </div>
      </Container>
    </section>
  );
}
