import { useEffect, useState } from 'react';
import type { DowngradePreview, PlanId } from '@mirror/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useI18n } from '../../../lib/i18n';
import { getDowngradePreview } from '../../../lib/payments';
import { downgradeConsequences } from '../../../lib/downgrade-consequences';

type PreviewLoad =
  { state: 'loading' } | { state: 'error' } | { state: 'ready'; preview: DowngradePreview };

interface DowngradeDialogProps {
  /** The plan the account would move to, and when (a cancellation: at the period's end). */
  plan: PlanId;
  at: 'now' | 'period_end';
  current: PlanId;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The confirmation of a cancellation or a move to a smaller plan: before the user answers, it
 * lists what the smaller plan does to their sites and domains, from the server's figures
 * (`GET /payments/downgrade-preview`). Confirming waits for that list; when it cannot be loaded the
 * dialog says so and still lets the user go on.
 */
export function DowngradeDialog({
  plan,
  at,
  current,
  title,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: DowngradeDialogProps) {
  const { t, locale } = useI18n();
  const [load, setLoad] = useState<PreviewLoad>({ state: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getDowngradePreview({ plan, at }, controller.signal)
      .then((preview) => setLoad({ state: 'ready', preview }))
      .catch(() => {
        if (!controller.signal.aborted) setLoad({ state: 'error' });
      });
    return () => controller.abort();
  }, [plan, at]);

  return (
    <ConfirmDialog
      danger
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      confirmDisabled={load.state === 'loading'}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="billing-consequences" aria-live="polite">
        {load.state === 'loading' && <p>{t('billing.downgrade.loading')}</p>}
        {load.state === 'error' && <p>{t('billing.downgrade.failed')}</p>}
        {load.state === 'ready' && (
          <>
            <p className="billing-consequences-title">{t('billing.downgrade.title')}</p>
            <ul data-testid="downgrade-consequences">
              {downgradeConsequences(load.preview, current, t, locale).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </ConfirmDialog>
  );
}
