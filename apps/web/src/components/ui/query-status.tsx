import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { getErrorMessage } from '../../lib/api-client';
import { useI18n } from '../../lib/i18n';
import { Spinner } from './spinner';

/**
 * A panel's query while it has no data: "Loading…", or why it failed with a Retry button that
 * asks again from scratch (the query's cache entry reset, so a stale error does not linger).
 */
export function QueryStatus({
  query,
  queryKey,
  failed,
  className,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  queryKey: QueryKey;
  /** Said when the error carries no message of its own. */
  failed: string;
  className?: string;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  return (
    <>
      {query.isPending && (
        <p className="site-muted" role="status">
          <Spinner /> {t('common.loading')}
        </p>
      )}
      {query.isError && (
        <div
          className={className ? `alert alert-error ${className}` : 'alert alert-error'}
          role="alert"
        >
          <span>{getErrorMessage(query.error, failed)}</span>{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => void queryClient.resetQueries({ queryKey })}
          >
            {t('dashboard.retry')}
          </button>
        </div>
      )}
    </>
  );
}
