import { Link } from 'react-router';
import type { DomainListItem } from '@mirror/contract';
import { paths } from '../../../config/paths';
import { useI18n } from '../../../lib/i18n';
// The status badge is the domains feature's, so a status reads the same everywhere.
import { DomainStatusBadge } from '../../../components/domains/domain-status-badge';
import { groupDomains } from '../utils/overview';

/** The user's custom and parked domains, split into active and pending (SPEC §4). */
export function DomainList({ domains }: { domains: readonly DomainListItem[] }) {
  const { t } = useI18n();
  if (domains.length === 0) {
    return (
      <div className="dash-empty">
        <p>{t('dashboard.domains.empty')}</p>
        <Link className="button button-outline" to={paths.parkDomain.getHref()}>
          {t('dashboard.cards.parked.action')}
        </Link>
      </div>
    );
  }
  const groups = groupDomains(domains);
  return (
    <div className="domain-groups">
      {(['active', 'pending'] as const).map((group) => (
        <section
          key={group}
          className="domain-group"
          aria-labelledby={`dash-domains-${group}`}
          data-testid={`domains-${group}`}
        >
          <h3 id={`dash-domains-${group}`} className="domain-group-title">
            {t(`dashboard.domains.${group}`, { count: groups[group].length })}
          </h3>
          {groups[group].length === 0 ? (
            <p className="dash-muted">{t(`dashboard.domains.${group}Empty`)}</p>
          ) : (
            <ul className="domain-rows">
              {groups[group].map((domain) => (
                <li key={domain.id} className="domain-row" data-testid="domain-row">
                  <Link className="domain-row-name" to={paths.domain.getHref(domain.id)} dir="ltr">
                    {domain.domain}
                  </Link>
                  <span className="domain-row-kind">{t(`domains.page.kind.${domain.kind}`)}</span>
                  <DomainStatusBadge status={domain.status} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
