import { useEffect, useState } from 'react';
import { DOMAIN_MESSAGES, type ParkedMessage } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { PageLoader } from '../../../components/ui/page-loader';
import { getErrorMessage } from '../../../lib/api-client';
import { formatDateTime, formatUsd } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getParkedMessages } from '../api/domain-api';

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; messages: ParkedMessage[] };

/** Contact messages and offers visitors sent from the parking page, newest first. */
export function ParkedMessages({ domainId, count }: { domainId: string; count: number }) {
  const { t, locale } = useI18n();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  // `count` changes when a refresh of the domain brings news: read the list again.
  useEffect(() => {
    const controller = new AbortController();
    getParkedMessages(domainId, controller.signal)
      .then((messages) => setLoad({ state: 'ready', messages }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({ state: 'error', message: getErrorMessage(error, DOMAIN_MESSAGES.fetchFailed) });
      });
    return () => controller.abort();
  }, [domainId, count]);

  return (
    <Panel title={t('domains.messages.title')} description={t('domains.messages.description')}>
      {load.state === 'loading' && <PageLoader />}
      {load.state === 'error' && (
        <p className="alert alert-error" role="alert">
          {load.message}
        </p>
      )}
      {load.state === 'ready' && load.messages.length === 0 && (
        <p className="domain-note domain-note-muted">{t('domains.messages.empty')}</p>
      )}
      {load.state === 'ready' && load.messages.length > 0 && (
        <ul className="parked-messages">
          {[...load.messages]
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
