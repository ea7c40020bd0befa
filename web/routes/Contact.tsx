import { ContactForm } from "../components/marketing/contact/ContactForm";
import { ContactInfo } from "../components/marketing/contact/ContactInfo";
import { MapIllustration } from "../components/marketing/contact/MapIllustration";
import { MarketingLayout } from "../components/marketing/MarketingLayout";
import { PageHeader } from "../components/marketing/PageHeader";
import { Container } from "../components/marketing/Section";
import { usePublicConfig } from "../lib/usePublicConfig";

export function Contact() {
  const { data: config } = usePublicConfig();
  return (
    <MarketingLayout>
      <title>Contact · Berth</title>
      <PageHeader eyebrow="Contact" title="Get in touch">
        Questions about Berth, your account or a site you host? Send us a message and we will get back to you.
      </PageHeader>
      <Container className="pb-24 sm:pb-28">
        {/* Phones get details, form, map; wide screens put the form beside details and map. */}
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[2fr_3fr] lg:gap-x-8">
          <ContactInfo />
          <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
            <ContactForm />
          </div>
          <MapIllustration address={config?.contactAddress ?? null} className="lg:col-start-1" />
        </div>
      </Container>
    </MarketingLayout>
  );
}
