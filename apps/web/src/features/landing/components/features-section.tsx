import { useI18n } from '../../../lib/i18n';
import { SectionHeader } from './section-header';

const FEATURES = [
  {
    key: 'pixelPerfect',
    icon: 'M4 5h16v11H4zM8 20h8M12 16v4M8 9h3v3H8z',
  },
  {
    key: 'aiCustomization',
    icon: 'M12 3l1.8 4.2L18 9l-4.2 1.8L12 15l-1.8-4.2L6 9l4.2-1.8zM18 15l.9 2.1L21 18l-2.1.9L18 21l-.9-2.1L15 18l2.1-.9z',
  },
  {
    key: 'fastDeploy',
    icon: 'M13 2L4 14h7l-1 8 9-12h-7z',
  },
] as const;

export function FeaturesSection() {
  const { t } = useI18n();
  return (
    <section id="features" className="section" aria-labelledby="features-title">
      <div className="container">
        <SectionHeader
          id="features-title"
          eyebrow={t('features.eyebrow')}
          title={t('features.title')}
          subtitle={t('features.subtitle')}
        />
        <ul className="card-grid">
          {FEATURES.map((feature) => (
            <li key={feature.key} className="card feature-card">
              <span className="feature-icon" aria-hidden="true">
                <svg viewBox="0 0 24 24" width="24" height="24">
                  <path
                    d={feature.icon}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.8"
                    strokeLinejoin="round"
                    strokeLinecap="round"
                  />
                </svg>
              </span>
              <h3 className="card-title">{t(`features.${feature.key}.title`)}</h3>
              <p className="card-body">{t(`features.${feature.key}.body`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
