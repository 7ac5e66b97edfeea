import { useI18n } from '../../lib/i18n';
import { useLoading } from '../../lib/loading';
import { Spinner } from './spinner';

/** Global overlay shown while `withLoading` work runs anywhere in the app. */
export function LoadingOverlay() {
  const { isLoading } = useLoading();
  const { t } = useI18n();
  if (!isLoading) return null;
  return (
    <div className="loading-overlay" role="status" aria-busy="true" aria-live="polite">
      <Spinner size="lg" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
