import { useI18n } from '../../lib/i18n';
import { Spinner } from './spinner';

/** Fallback while a route's code arrives. */
export function PageLoader() {
  const { t } = useI18n();
  return (
    <div className="page-loader" role="status">
      <Spinner size="lg" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
