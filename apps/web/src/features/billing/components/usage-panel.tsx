import { useQuery } from '@tanstack/react-query';
import { PAYMENT_MESSAGES } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { getErrorMessage } from '../../../lib/api-client';
import { formatBytes, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getUsage } from '../../../api/payments';
import { queryKeys } from '../../../api/query-keys';
import { formatUnixDate } from '../utils/format-billing';

/**
 * What the plan allows and what this account uses this billing period (`GET /payments/usage`),
 * storage included (all versions of its sites), and the audience of its sites and parked pages.
 */
export function UsagePanel() {
  const { t, locale } = useI18n();
  const query = useQuery({
    queryKey: queryKeys.billing.usage(),
    queryFn: ({ signal }) => getUsage(signal),
  });

  const n = (value: number) => formatNumber(locale, value);
  const usage = query.isSuccess ? query.data : null;

  return (
    <Panel
      title={t('billing.usage.title')}
      description={
        usage
          ? t('billing.usage.period', {
              start: formatUnixDate(locale, usage.periodStart),
              end: formatUnixDate(locale, usage.periodEnd),
            })
          : undefined
      }
    >
      {query.isPending && <p className="panel-description">{t('common.loading')}</p>}
      {query.isError && (
        <p className="alert alert-error" role="alert">
          {getErrorMessage(query.error, PAYMENT_MESSAGES.fetchUsageFailed)}
        </p>
      )}
      {usage && (
        <dl className="usage-grid">
          <UsageMeter
            label={t('billing.usage.mirrors')}
            used={usage.mirrors.used}
            limit={usage.mirrors.limit}
            text={
              usage.mirrors.limit === null
                ? t('billing.usage.ofUnlimited', { used: n(usage.mirrors.used) })
                : t('billing.usage.of', {
                    used: n(usage.mirrors.used),
                    limit: n(usage.mirrors.limit),
                  })
            }
          />
          <UsageMeter
            label={t('billing.usage.customDomains')}
            used={usage.customDomains.used}
            limit={usage.customDomains.limit}
            text={t('billing.usage.of', {
              used: n(usage.customDomains.used),
              limit: n(usage.customDomains.limit),
            })}
            // A domain waiting for its DNS records already takes one of the plan's.
            note={
              usage.customDomains.waiting > 0
                ? t('billing.usage.domainsWaiting', { count: n(usage.customDomains.waiting) })
                : undefined
            }
          />
          <UsageMeter
            label={t('billing.usage.storage')}
            used={usage.storage.usedBytes}
            limit={usage.storage.limitBytes}
            text={t('billing.usage.of', {
              used: formatBytes(locale, usage.storage.usedBytes),
              limit: formatBytes(locale, usage.storage.limitBytes),
            })}
          />
          <div className="usage-item">
            <dt>{t('billing.usage.visitors')}</dt>
            <dd data-testid="usage-visitors">{n(usage.visitors)}</dd>
          </div>
          <div className="usage-item">
            <dt>{t('billing.usage.pageViews')}</dt>
            <dd data-testid="usage-page-views">{n(usage.pageViews)}</dd>
          </div>
          <div className="usage-item">
            <dt>{t('billing.usage.bandwidth')}</dt>
            <dd>
              <span data-testid="usage-bandwidth">{formatBytes(locale, usage.bandwidthBytes)}</span>
              {/* Beside 0 visitors a figure of bytes needs saying where it went. */}
              <span className="usage-note" data-testid="usage-bandwidth-note">
                {t('billing.usage.bandwidthNote')}
              </span>
            </dd>
          </div>
          <div className="usage-item">
            <dt>{t('billing.usage.parkedVisits')}</dt>
            <dd data-testid="usage-parked-visits">
              {t('billing.usage.parkedValue', {
                visitors: n(usage.parked.visitors),
                views: n(usage.parked.pageViews),
              })}
            </dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}

function UsageMeter({
  label,
  used,
  limit,
  text,
  note,
}: {
  label: string;
  used: number;
  limit: number | null;
  text: string;
  /** What the figure includes, under it. */
  note?: string | undefined;
}) {
  // Unlimited plans and a zero limit have nothing to fill.
  const share = limit ? Math.min(1, used / limit) : 0;
  return (
    <div className="usage-item">
      <dt>{label}</dt>
      <dd>
        <span>{text}</span>
        {limit !== null && limit > 0 && (
          <span className="usage-bar" aria-hidden="true">
            <span
              className={used >= limit ? 'usage-bar-fill usage-bar-full' : 'usage-bar-fill'}
              style={{ inlineSize: `${Math.round(share * 100)}%` }}
            />
          </span>
        )}
        {note && <span className="usage-note">{note}</span>}
      </dd>
    </div>
  );
}
