import { useRoutes, type RouteObject } from 'react-router';
import { DEFAULT_LOCALE, LOCALES } from '@mirror/contract';
import { STATIC_PAGES, paths } from '../config/paths';
import { lazyScreen } from '../lib/i18n';
import { LandingRoute } from './routes/landing';
import { RequireAuth } from './routes/require-auth';
import { AppLayout } from './shell/app-layout';

const DashboardPage = lazyScreen(
  () => import('../features/dashboard/components/dashboard-page'),
  'DashboardPage',
);
const SitePage = lazyScreen(() => import('../features/sites/components/site-page'), 'SitePage');
const ChangeReportPage = lazyScreen(
  () => import('../features/sites/components/change-report-page'),
  'ChangeReportPage',
);
const DomainPage = lazyScreen(
  () => import('../features/domains/components/domain-page'),
  'DomainPage',
);
const ParkDomainPage = lazyScreen(
  () => import('../features/domains/components/park-domain-page'),
  'ParkDomainPage',
);
const BillingPage = lazyScreen(
  () => import('../features/billing/components/billing-page'),
  'BillingPage',
);
const ProfilePage = lazyScreen(
  () => import('../features/profile/components/profile-page'),
  'ProfilePage',
);
const SettingsPage = lazyScreen(
  () => import('../features/settings/components/settings-page'),
  'SettingsPage',
);
const ResetPasswordPage = lazyScreen(
  () => import('../features/auth/components/reset-password-page'),
  'ResetPasswordPage',
);
const StaticPage = lazyScreen(
  () => import('../features/info-pages/components/static-page'),
  'StaticPage',
);
const NotFoundRoute = lazyScreen(() => import('./routes/not-found'), 'NotFoundRoute');

export function createRoutes(): RouteObject[] {
  return [
    {
      element: <AppLayout />,
      children: [
        { path: paths.home.path, element: <LandingRoute /> },
        { path: paths.liveDemo.path, element: <LandingRoute isLiveDemo /> },
        ...LOCALES.filter((l) => l.code !== DEFAULT_LOCALE).map((l) => ({
          path: l.homePath,
          element: <LandingRoute key={l.code} routeLocale={l.code} />,
        })),
        {
          element: <RequireAuth />,
          children: [
            { path: paths.dashboard.path, element: <DashboardPage /> },
            { path: paths.site.path, element: <SitePage /> },
            { path: paths.siteChanges.path, element: <ChangeReportPage /> },
            { path: paths.domain.path, element: <DomainPage /> },
            { path: paths.billing.path, element: <BillingPage /> },
            { path: paths.profile.path, element: <ProfilePage /> },
            { path: paths.settings.path, element: <SettingsPage /> },
          ],
        },
        { path: paths.parkDomain.path, element: <ParkDomainPage /> },
        { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
        ...STATIC_PAGES.map((name) => ({
          path: paths[name].path,
          element: <StaticPage key={name} name={name} />,
        })),
        { path: paths.notFound.path, element: <NotFoundRoute /> },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ];
}

const routes = createRoutes();

/** Declarative router: the data APIs (loaders, actions) are not used, so their code stays out. */
export function AppRoutes() {
  return useRoutes(routes);
}
