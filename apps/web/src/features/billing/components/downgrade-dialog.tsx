import { useQuery } from '@tanstack/react-query';
import type { PlanId } from '@mirror/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useI18n } from '../../../lib/i18n';
import { getDowngradePreview } from '../../../api/payments';
import { queryKeys } from '../../../api/query-keys';
import { downgradeConsequences } from '../../../lib/downgrade-consequences';

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
  const query = useQuery({
    queryKey: queryKeys.billing.downgradePreview({ plan, at }),
    queryFn: ({ signal }) => getDowngradePreview({ plan, at }, signal),
  });

  return (
    <ConfirmDialog
      danger
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      confirmDisabled={query.isPending}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="billing-consequences" aria-live="polite">
        {query.isPending && <p>{t('billing.downgrade.loading')}</p>}
        {query.isError && <p>{t('billing.downgrade.failed')}</p>}
        {query.isSuccess && (
          <>
            <p className="billing-consequences-title">{t('billing.downgrade.title')}</p>
            <ul data-testid="downgrade-consequences">
              {downgradeConsequences(query.data, current, t, locale).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </ConfirmDialog>
  );
}
