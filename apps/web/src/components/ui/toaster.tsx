import { lazy, Suspense } from 'react';
import { useI18n } from '../../lib/i18n';

const AppToastContainer = lazy(async () => ({
  default: (await import('./toast-container')).AppToastContainer,
}));

export function Toaster() {
  const { dir } = useI18n();
  return (
    <Suspense fallback={null}>
      <AppToastContainer rtl={dir === 'rtl'} />
    </Suspense>
  );
}
