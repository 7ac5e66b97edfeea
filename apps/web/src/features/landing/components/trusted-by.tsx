import { useI18n } from '../../../lib/i18n';

/** The kinds of sites Mirror copies: a true strip in place of customer logos we could not show. */
const KINDS = ['blogs', 'shops', 'portfolios', 'docs', 'landing', 'local'] as const;

export function TrustedBy() {
  const { t } = useI18n();
  return (
    <section className="trusted" aria-labelledby="trusted-title">
      <div className="container">
        <h2 id="trusted-title" className="trusted-title">
          {t('trustedBy.title')}
        </h2>
        <ul className="trusted-kinds">
          {KINDS.map((kind) => (
            <li key={kind}>{t(`trustedBy.kinds.${kind}`)}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
