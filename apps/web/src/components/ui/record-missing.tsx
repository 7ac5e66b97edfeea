import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useI18n } from '../../lib/i18n';
import './record-missing.css';

/** A dashboard record (site, domain) that does not exist or is not yours. */
export function RecordNotFound({ title, body }: { title: string; body: string }) {
  const { t } = useI18n();
  return (
    <div className="page container record-missing">
      <h1 className="page-title">{title}</h1>
      <p className="page-lead">{body}</p>
      <Link className="button button-primary" to={paths.dashboard.getHref()}>
        {t('site.backToDashboard')}
      </Link>
    </div>
  );
}

/** A dashboard record that could not be loaded: the server's message, Retry and the way back. */
export function RecordLoadFailed({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string | null;
  onRetry: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="page container record-missing">
      <h1 className="page-title">{title}</h1>
      {message !== null && (
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      )}
      <div className="panel-actions">
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t('dashboard.retry')}
        </button>
        <Link className="button button-outline" to={paths.dashboard.getHref()}>
          {t('site.backToDashboard')}
        </Link>
      </div>
    </div>
  );
}
