import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { formatDateTime, siteNameOf } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import type { ActivityItem } from '../utils/overview';

export function RecentActivity({ items }: { items: readonly ActivityItem[] }) {
  const { t, locale } = useI18n();
  if (items.length === 0) return <p className="dash-muted">{t('dashboard.activity.empty')}</p>;
  return (
    <ol className="activity-list">
      {items.map((item) => (
        <li key={item.key} className={`activity-item activity-${item.kind}`}>
          <span className="activity-dot" aria-hidden="true" />
          <div>
            <Link to={paths.site.getHref(item.siteId)} className="activity-text">
              {t(`dashboard.activity.${item.kind}`, { url: siteNameOf(item).name })}
            </Link>
            <time className="activity-time" dateTime={item.at}>
              {formatDateTime(locale, item.at)}
            </time>
          </div>
        </li>
      ))}
    </ol>
  );
}
