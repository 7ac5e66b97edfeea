import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DOMAIN_MESSAGES } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { Panel } from '../../../components/ui/panel';
import { PageLoader } from '../../../components/ui/page-loader';
import { getErrorMessage } from '../../../lib/api-client';
import { formatDateTime, formatUsd } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getParkedMessages } from '../api/domain-api';

/** Contact messages and offers visitors sent from the parking page, newest first. */
export function ParkedMessages({ domainId, count }: { domainId: string; count: number }) {
  const { t, locale } = useI18n();
  // `count` changes when a refresh of the domain brings news: the list is read again, and the
  // one on screen stays until the new one arrives.
  const query = useQuery({
    queryKey: queryKeys.domains.messages(domainId, count),
    queryFn: ({ signal }) => getParkedMessages(domainId, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <Panel title={t('domains.messages.title')} description={t('domains.messages.description')}>
      {query.isPending && <PageLoader />}
      {query.isError && (
        <p className="alert alert-error" role="alert">
          {getErrorMessage(query.error, DOMAIN_MESSAGES.fetchFailed)}
        </p>
      )}
      {query.isSuccess && query.data.length === 0 && (
        <p className="domain-note domain-note-muted">{t('domains.messages.empty')}</p>
      )}
      {query.isSuccess && query.data.length > 0 && (
        <ul className="parked-messages">
          {[...query.data]
            .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
            .map((message) => (
              <li key={message.id} className="parked-message" data-testid="parked-message">
                <p className="parked-message-head">
                  <span className={`badge parked-kind-${message.kind}`}>
                    {t(`domains.messages.kinds.${message.kind}`)}
                  </span>
                  {message.amount !== null && (
                    <strong className="parked-offer">{formatUsd(locale, message.amount)}</strong>
                  )}
                  <span className="parked-from">
                    {message.name} ·{' '}
                    <a href={`mailto:${message.email}`} dir="ltr">
                      {message.email}
                    </a>
                  </span>
                  <time className="parked-time" dateTime={message.createdAt}>
                    {formatDateTime(locale, message.createdAt)}
                  </time>
                </p>
                <p className="parked-message-text">{message.message}</p>
              </li>
            ))}
        </ul>
      )}
    </Panel>
  );
}
