import { useState } from 'react';
import { useI18n } from '../../../lib/i18n';
import { SectionHeader } from './section-header';

export const FAQ_KEYS = [
  'howItWorks',
  'legal',
  'aiCustomization',
  'customDomain',
  'updates',
] as const;

export function FaqSection() {
  const { t } = useI18n();
  const [openKey, setOpenKey] = useState<string | null>(null);

  return (
    <section id="faq" className="section section-muted" aria-labelledby="faq-title">
      <div className="container container-narrow">
        <SectionHeader id="faq-title" eyebrow={t('faq.eyebrow')} title={t('faq.title')} />
        <div className="faq-list">
          {FAQ_KEYS.map((key) => {
            const isOpen = openKey === key;
            return (
              <div key={key} className={isOpen ? 'faq-item faq-open' : 'faq-item'}>
                <h3 className="faq-question">
                  <button
                    type="button"
                    id={`faq-button-${key}`}
                    aria-expanded={isOpen}
                    aria-controls={`faq-panel-${key}`}
                    onClick={() => setOpenKey(isOpen ? null : key)}
                  >
                    <span>{t(`faq.${key}.question`)}</span>
                    <svg
                      className="faq-icon"
                      viewBox="0 0 20 20"
                      width="18"
                      height="18"
                      aria-hidden="true"
                    >
                      <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
                    </svg>
                  </button>
                </h3>
                <div
                  id={`faq-panel-${key}`}
                  role="region"
                  aria-labelledby={`faq-button-${key}`}
                  className="faq-answer"
                  hidden={!isOpen}
                >
                  <p>{t(`faq.${key}.answer`)}</p>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
