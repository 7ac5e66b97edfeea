import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Page } from '../../../components/ui/page';
import { PageLoader } from '../../../components/ui/page-loader';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { formatNumber, formatUsd } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getDowngradePreview } from '../../../api/payments';
import { getDomainsOverview } from '../../../api/domains';
import { queryKeys } from '../../../api/query-keys';
import { overLimitNotice } from '../../../lib/downgrade-consequences';
import { useFreshUser } from '../../../lib/use-fresh-user';
import { countOverview, recentActivity, type DashboardOverview } from '../utils/overview';
import { DomainList } from './domain-list';
import { RecentActivity } from './recent-activity';
import { SiteList } from './site-list';
import './dashboard.css';

const EMPTY: DashboardOverview = { sites: [], domains: [] };

export function DashboardPage() {
  const { t, locale } = useI18n();
  const { user } = useFreshUser();
  const queryClient = useQueryClient();
  const overview = useQuery({
    queryKey: queryKeys.domains.overview(),
    queryFn: ({ signal }) => getDomainsOverview(signal),
  });
  /**
   * What is over the plan's limits (after a downgrade): read-only sites, domains to detach. The
   * notice is extra: when it fails, the dashboard reads as before. Asked again when the plan is
   * known or changes; the notice on screen stays until the new answer.
   */
  const { data: limits } = useQuery({
    queryKey: queryKeys.billing.downgradePreview({ current: user?.plan }),
    queryFn: ({ signal }) => getDowngradePreview({}, signal),
    placeholderData: keepPreviousData,
  });

  const retry = () => void queryClient.resetQueries({ queryKey: queryKeys.domains.overview() });

  const loading = overview.isPending;
  const data: DashboardOverview = overview.data ?? EMPTY;
  const counters = countOverview(data, user?.plan);
  const n = (value: number) => formatNumber(locale, value);
  const limit = counters.mirrorLimit === null ? t('dashboard.unlimited') : n(counters.mirrorLimit);
  const overLimit = limits ? overLimitNotice(limits, t, locale) : [];

  const stats = [
    { key: 'sites', label: t('dashboard.counters.sites'), value: n(counters.mirroredSites) },
    { key: 'parked', label: t('dashboard.counters.parked'), value: n(counters.parkedDomains) },
    { key: 'active', label: t('dashboard.counters.active'), value: n(counters.activeDomains) },
    { key: 'plan', label: t('dashboard.counters.plan'), value: counters.plan.name },
  ];

  return (
    <Page
      className="dashboard-page"
      meta={{ title: t('meta.dashboard.title'), description: t('meta.dashboard.description') }}
      title={t('dashboard.title')}
      lead={user ? t('dashboard.welcome', { name: user.name }) : t('dashboard.lead')}
    >
      {overview.isError && (
        <div className="alert alert-error dashboard-error" role="alert">
          <span>{getErrorMessage(overview.error, 'Failed to fetch domains')}</span>
          <button type="button" className="button button-outline" onClick={retry}>
            {t('dashboard.retry')}
          </button>
        </div>
      )}

      {overLimit.length > 0 && (
        <section
          className="alert dashboard-over-limit"
          role="status"
          aria-labelledby="dashboard-over-limit-title"
          data-testid="over-limit"
        >
          <h2 id="dashboard-over-limit-title" className="dashboard-over-limit-title">
            {t('dashboard.overLimit.title')}
          </h2>
          <ul>
            {overLimit.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <Link className="button button-primary" to={paths.billing.getHref()}>
            {t('dashboard.overLimit.action')}
          </Link>
        </section>
      )}

      <section aria-label={t('dashboard.overviewLabel')}>
        <dl className="stat-grid" aria-busy={loading}>
          {stats.map((stat) => (
            <div key={stat.key} className="stat" data-testid={`stat-${stat.key}`}>
              <dt className="stat-label">{stat.label}</dt>
              <dd className="stat-value">{loading ? '–' : stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="dash-cards">
        <section className="dash-card" aria-labelledby="dash-card-sites">
          <h2 id="dash-card-sites" className="dash-card-title">
            {t('dashboard.cards.mirrored.title')}
          </h2>
          <p className="dash-card-figure">
            {t('dashboard.cards.mirrored.active', { count: n(counters.activeMirrors) })}
          </p>
          <p className="dash-card-note">
            {t('dashboard.cards.mirrored.thisMonth', { count: n(counters.createdThisMonth) })}
          </p>
          <Link className="button button-primary" to={paths.home.getHref()}>
            {t('dashboard.cards.mirrored.action')}
          </Link>
        </section>
        <section className="dash-card" aria-labelledby="dash-card-parked">
          <h2 id="dash-card-parked" className="dash-card-title">
            {t('dashboard.cards.parked.title')}
          </h2>
          <p className="dash-card-figure">
            {t('dashboard.cards.parked.count', { count: n(counters.parkedDomains) })}
          </p>
          <p className="dash-card-note">
            {t('dashboard.cards.parked.revenue', { amount: formatUsd(locale, 0) })}
          </p>
          <Link className="button button-outline" to={paths.parkDomain.getHref()}>
            {t('dashboard.cards.parked.action')}
          </Link>
        </section>
        <section className="dash-card" aria-labelledby="dash-card-plan">
          <h2 id="dash-card-plan" className="dash-card-title">
            {t('dashboard.cards.subscription.title')}
          </h2>
          <p className="dash-card-figure">
            {t('dashboard.cards.subscription.plan', { plan: counters.plan.name })}
          </p>
          <p className="dash-card-note" data-testid="plan-usage">
            {t('dashboard.cards.subscription.usage', {
              used: n(counters.mirroredSites),
              limit,
            })}
          </p>
          <Link className="button button-outline" to={paths.billing.getHref()}>
            {t('dashboard.cards.subscription.action')}
          </Link>
        </section>
      </div>

      <div className="dash-columns">
        <section className="dash-section" aria-labelledby="dash-sites-title">
          <h2 id="dash-sites-title" className="dash-section-title">
            {t('dashboard.sites.title')}
          </h2>
          {loading ? <PageLoader /> : <SiteList sites={data.sites} />}
        </section>
        <section className="dash-section" aria-labelledby="dash-activity-title">
          <h2 id="dash-activity-title" className="dash-section-title">
            {t('dashboard.activity.title')}
          </h2>
          {loading ? <PageLoader /> : <RecentActivity items={recentActivity(data.sites)} />}
        </section>
      </div>

      <section className="dash-section dash-domains" aria-labelledby="dash-domains-title">
        <h2 id="dash-domains-title" className="dash-section-title">
          {t('dashboard.domains.title')}
        </h2>
        {loading ? <PageLoader /> : <DomainList domains={data.domains} />}
      </section>
    </Page>
  );
}
