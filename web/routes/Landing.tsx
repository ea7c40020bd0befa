import { CtaBand } from "../components/marketing/CtaBand";
import { Faq } from "../components/marketing/Faq";
import { Features } from "../components/marketing/Features";
import { Hero } from "../components/marketing/Hero";
import { HowItWorks } from "../components/marketing/HowItWorks";
import { MarketingLayout } from "../components/marketing/MarketingLayout";
import { Pricing } from "../components/marketing/Pricing";

export function Landing() {
  return (
    <MarketingLayout>
      <Hero />
      <Features />
      <HowItWorks />
      <Pricing />
      <Faq />
      <CtaBand />
    </MarketingLayout>
  );
}
