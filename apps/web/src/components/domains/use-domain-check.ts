import { useCallback, useRef, useState } from 'react';
import type { DomainCheckResponse } from '@mirror/contract';
import { checkDomain } from '../../api/domains';
import { getErrorMessage } from '../../lib/api-client';
import { useI18n } from '../../lib/i18n';
import { notify } from '../../lib/toast';

/**
 * 'Check Now': asks the server to look at DNS now and hands the answer (status per record and
 * overall) to `onChecked`. One check at a time; the outcome is also told in a toast.
 */
export function useDomainCheck(domain: string, onChecked: (answer: DomainCheckResponse) => void) {
  const { t } = useI18n();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const check = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setChecking(true);
    setError(null);
    try {
      const answer = await checkDomain(domain);
      onChecked(answer);
      if (answer.status === 'active') notify.success(t('domains.check.active', { domain }));
      else if (answer.status === 'misconfigured') notify.warning(t('domains.check.misconfigured'));
      else notify.info(t('domains.check.propagating'));
    } catch (failure) {
      setError(getErrorMessage(failure, t('domains.check.failed')));
      notify.error(t('domains.check.failed'));
    } finally {
      busy.current = false;
      setChecking(false);
    }
  }, [domain, onChecked, t]);

  return { checking, error, check };
}
