import { ArrowRight, Check } from "lucide-react";
import { Link } from "react-router";
import { LANDING_TEXT } from "../../../common/texts";
import { useSession } from "../../lib/session";
import { Button } from "../ui/Button";
import { Backdrop } from "./Backdrop";
import { FilePreview } from "./FilePreview";
import { Container } from "./Section";

const POINTS = [LANDING_TEXT.noCreditCard, "Live in seconds", "Open source"];

export function Hero() {
  const { user } = useSession();
  return (
    <section aria-labelledby="hero-title" className="relative isolate pb-20 pt-28 sm:pb-24 sm:pt-36">
      <Backdrop />
      <Container className="grid grid-cols-1 items-center gap-14 lg:grid-cols-[1.05fr_1fr] lg:gap-12">
        <div className="text-center lg:text-left">
          <Link
            to="/docs#self-hosting"
            className="inline-flex items-center gap-2 rounded-full border bg-background/80 px-3 py-1 text-xs font-medium text-muted-foreground shadow-xs backdrop-blur transition-colors hover:text-foreground"
          >
            <span className="rounded-full bg-primary/10 px-2 py-0.5 text-primary">Open source</span>
            Run it on your own server
            <ArrowRight aria-hidden className="size-3.5" />
          </Link>
          <h1 id="hero-title" className="mt-6 text-4xl font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl lg:leading-[1.05]">
            Put your files online <span className="text-primary">in one click</span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-base leading-relaxed sm:text-lg text-pretty text-muted-foreground lg:mx-0">
            One-click hosting for PDFs, HTML files and zipped projects. Global CDN delivery, instant deployment, and secure sharing through private
            links and expiry settings.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Button asChild size="lg" className="h-12 px-6">
              {user ? (
                <Link to="/dashboard">
                  Go to your sites <ArrowRight aria-hidden />
                </Link>
              ) : (
                <Link to="/auth/signup">
                  Start hosting for free <ArrowRight aria-hidden />
                </Link>
              )}
            </Button>
            <Button asChild size="lg" variant="outline" className="h-12 px-6">
              <Link to="/#features">Explore features</Link>
            </Button>
          </div>
          <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground lg:justify-start">
            {POINTS.map((point) => (
              <li key={point} className="flex items-center gap-1.5">
                <Check aria-hidden className="size-4 text-success" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <FilePreview className="mx-auto w-full max-w-lg lg:max-w-none" />
      </Container>
    </section>
  );
}
