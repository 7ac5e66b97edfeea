import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { Footer } from '../../components/layout/footer';
import { Navbar } from '../../components/layout/navbar';
import { LoadingOverlay } from '../../components/ui/loading-overlay';
import { PageLoader } from '../../components/ui/page-loader';
import { Toaster } from '../../components/ui/toaster';
import { AuthProvider } from '../../lib/auth-provider';
import { DialogsProvider } from '../../lib/dialogs';
import { lazyScreen, useI18n } from '../../lib/i18n';
import { LoadingProvider } from '../../lib/loading';
import { createQueryClient } from '../query-client';
import { ScrollManager } from './scroll-manager';

// The login and register dialogs load on first use, keeping them out of the landing bundle.
const AuthDialogs = lazyScreen(
  () => import('../../features/auth/components/auth-dialogs'),
  'AuthDialogs',
);

/** Root route element: the providers that need the router, then header, page, footer. */
export function AppLayout() {
  const { t } = useI18n();
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <DialogsProvider>
          <LoadingProvider>
            <a href="#main" className="skip-link">
              {t('common.skipToContent')}
            </a>
            <Navbar />
            <main id="main" tabIndex={-1}>
              <Suspense fallback={<PageLoader />}>
                <Outlet />
              </Suspense>
            </main>
            <Footer />
            <Suspense fallback={null}>
              <AuthDialogs />
            </Suspense>
            <LoadingOverlay />
            <ScrollManager />
            <Toaster />
          </LoadingProvider>
        </DialogsProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
