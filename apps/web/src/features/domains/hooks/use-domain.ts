import { useCallback, useEffect, useState } from 'react';
import type { DomainCheckResponse } from '@mirror/contract';
import { getErrorMessage } from '../../../lib/api-client';
import { getDomain, type DomainRecord } from '../api/domain-api';
import { applyCheck } from '../../../lib/apply-check';

/** While a domain is not active, the page re-reads it this often: the server's checks activate it. */
export const DOMAIN_REFRESH_MS = 20_000;

export type DomainLoad =
  | { state: 'loading' }
  | { state: 'not-found' }
  | { state: 'error'; message: string }
  | { state: 'ready' };

/** One custom or parked domain of the signed-in user, kept fresh while it waits for DNS. */
export function useDomain(id: string) {
  const [load, setLoad] = useState<DomainLoad>({ state: 'loading' });
  const [record, setRecord] = useState<DomainRecord | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getDomain(id, controller.signal)
      .then((found) => {
        setRecord(found);
        setLoad(found ? { state: 'ready' } : { state: 'not-found' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({ state: 'error', message: getErrorMessage(error, 'Failed to fetch domains') });
      });
    return () => controller.abort();
  }, [id, attempt]);

  const waiting = record !== null && record.status !== 'active';
  useEffect(() => {
    if (!waiting) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'hidden') return;
      getDomain(id, controller.signal)
        .then((found) => {
          if (found) setRecord(found);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) console.error('Could not refresh the domain', error);
        });
    }, DOMAIN_REFRESH_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [id, waiting]);

  const retry = useCallback(() => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  const applyAnswer = useCallback((answer: DomainCheckResponse) => {
    setRecord((current) =>
      current && current.id === answer.id ? applyCheck(current, answer) : current,
    );
  }, []);

  return { load, record, setRecord, retry, applyCheck: applyAnswer };
}
