import { useI18n } from '../../../lib/i18n';
import { SectionHeader } from './section-header';

const STEPS = ['paste', 'customize', 'deploy'] as const;

export function HowItWorksSection() {
  const { t } = useI18n();
  return (
    <section id="how-it-works" className="section section-muted" aria-labelledby="how-title">
      <div className="container">
        <SectionHeader
          id="how-title"
          eyebrow={t('howItWorks.eyebrow')}
          title={t('howItWorks.title')}
        />
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step} className="step">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <p className="step-label">{t('howItWorks.step', { number: index + 1 })}</p>
              <h3 className="card-title">{t(`howItWorks.${step}.title`)}</h3>
              <p className="card-body">{t(`howItWorks.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
