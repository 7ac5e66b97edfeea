import { PARKED_VISITS_DAYS, type ParkedDomain } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';

/** Who opened the parking page lately (the server leaves bots out). */
export function ParkedVisits({ visits }: { visits: ParkedDomain['visits'] }) {
  const { t, locale } = useI18n();
  return (
    <Panel
      title={t('domains.page.visitsTitle')}
      description={t('domains.page.visitsDescription', { days: PARKED_VISITS_DAYS })}
    >
      <dl className="parked-visits">
        <div>
          <dt>{t('domains.page.visitors')}</dt>
          <dd data-testid="parked-visitors">{formatNumber(locale, visits.visitors)}</dd>
        </div>
        <div>
          <dt>{t('domains.page.pageViews')}</dt>
          <dd data-testid="parked-page-views">{formatNumber(locale, visits.pageViews)}</dd>
        </div>
      </dl>
    </Panel>
  );
}
