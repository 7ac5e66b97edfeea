import type { ReactNode } from 'react';
import './landing.css';
import { CtaSection } from './cta-section';
import { FaqSection } from './faq-section';
import { FeaturesSection } from './features-section';
import { Hero } from './hero';
import { HowItWorksSection } from './how-it-works-section';
import { PricingSection } from './pricing-section';
import { TrustedBy } from './trusted-by';

export function LandingPage({
  ideaPanel,
  archivePanel,
}: {
  ideaPanel?: ReactNode;
  archivePanel?: ReactNode;
}) {
  return (
    <>
      <Hero ideaPanel={ideaPanel} archivePanel={archivePanel} />
      <TrustedBy />
      <FeaturesSection />
      <HowItWorksSection />
      <PricingSection />
      <CtaSection />
      <FaqSection />
    </>
  );
}
