import { useI18n } from '../../../lib/i18n';

/** Invented customer names standing for the kinds of teams that use Mirror. */
const CUSTOMERS = [
  'Atlas Studio',
  'Bright Harbor',
  'Cedar Labs',
  'Kite Commerce',
  'Juniper Media',
  'Orbit Agency',
] as const;

export function TrustedBy() {
  const { t } = useI18n();
  return (
    <section className="trusted" aria-labelledby="trusted-title">
      <div className="container">
        <h2 id="trusted-title" className="trusted-title">
          {t('trustedBy.title')}
        </h2>
        <ul className="trusted-logos">
          {CUSTOMERS.map((name) => (
            <li key={name} lang="en">
              {name}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
