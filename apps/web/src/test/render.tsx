import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { Suspense, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createQueryClient } from '../app/query-client';
import { AppToastContainer } from '../components/ui/toast-container';
import { AuthDialogs } from '../features/auth/components/auth-dialogs';
import { AuthProvider } from '../lib/auth-provider';
import { DialogsProvider } from '../lib/dialogs';
import { I18nProvider } from '../lib/i18n';
import { LoadingProvider } from '../lib/loading';

/** Shows the current location so tests can assert navigations. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function Providers({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      <DialogsProvider>
        <LoadingProvider>
          {children}
          <AuthDialogs />
          <LocationProbe />
          <AppToastContainer rtl={false} />
        </LoadingProvider>
      </DialogsProvider>
    </AuthProvider>
  );
}

/**
 * Renders a component with the app's providers at `route` (with the location `state` a link
 * handed over, if any), in English. Each render has its own
 * query cache: nothing is shared between tests, nothing retries, and no garbage-collection timer
 * outlives the test.
 */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', state }: { route?: string; state?: unknown } = {},
) {
  const queryClient = createQueryClient({ retry: false, gcTime: Infinity });
  // `state`: what a link handed to the page (the router's location state).
  const [pathname = '/', search = ''] = route.split(/(?=\?)/);
  const entry = state === undefined ? route : { pathname, search, state };
  return render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider initialLocale="en">
        <MemoryRouter initialEntries={[entry]}>
          <Suspense fallback={null}>
            <Routes>
              <Route path="*" element={<Providers>{ui}</Providers>} />
            </Routes>
          </Suspense>
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}
