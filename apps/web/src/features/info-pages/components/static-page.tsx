import type { StaticPageName } from '../../../config/paths';
import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

/** Section keys per page, in reading order, under `pages.<page>.<section>`. */
const SECTIONS: Record<StaticPageName, readonly string[]> = {
  contact: ['support', 'sales', 'takedown'],
  about: ['mission', 'how', 'team'],
  blog: ['launch', 'languages', 'domains'],
  roadmap: ['now', 'next', 'later'],
  terms: ['rights', 'use', 'takedown', 'plans'],
  privacy: ['store', 'use', 'rights'],
  cookies: ['storage', 'thirdParty', 'control'],
};

/** Addresses are not translated; the texts place them with `{email}`. */
const EMAILS: Partial<Record<string, string>> = {
  'contact.support': 'support@mirror.dev',
  'contact.sales': 'sales@mirror.dev',
  'contact.takedown': 'legal@mirror.dev',
  'terms.takedown': 'legal@mirror.dev',
  'privacy.rights': 'privacy@mirror.dev',
};

function renderWithEmail(text: string, email: string | undefined) {
  if (!email) return text;
  const [before, after] = text.split('{email}');
  return (
    <>
      {before}
      <a href={`mailto:${email}`}>{email}</a>
      {after}
    </>
  );
}

export function StaticPage({ name }: { name: StaticPageName }) {
  const { t } = useI18n();
  return (
    <Page
      meta={{ title: t(`meta.${name}.title`), description: t(`meta.${name}.description`) }}
      title={t(`pages.${name}.title`)}
      lead={t(`pages.${name}.lead`)}
    >
      <div className="prose">
        {SECTIONS[name].map((section) => (
          <section key={section} aria-labelledby={`${name}-${section}`}>
            <h2 id={`${name}-${section}`}>{t(`pages.${name}.${section}.heading`)}</h2>
            <p>
              {renderWithEmail(t(`pages.${name}.${section}.body`), EMAILS[`${name}.${section}`])}
            </p>
          </section>
        ))}
      </div>
    </Page>
  );
}
