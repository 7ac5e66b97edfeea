import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { useI18n } from '../../lib/i18n';

interface ThreeDSecureDialogProps {
  /** The answer is being sent. */
  busy: boolean;
  onAnswer: (approve: boolean) => void;
}

/**
 * The test mode's stand-in for a bank's 3-D Secure page (card 4000 0025 0000 3155): the card holder
 * completes or fails the authentication. Closing it counts as failing, as abandoning the bank page
 * does.
 */
export function ThreeDSecureDialog({ busy, onAnswer }: ThreeDSecureDialogProps) {
  const { t } = useI18n();
  return (
    <Modal
      role="alertdialog"
      title={t('payments.authenticate.title')}
      description={t('payments.authenticate.description')}
      onClose={() => {
        if (!busy) onAnswer(false);
      }}
    >
      <p className="test-mode-badge">{t('payments.testMode.badge')}</p>
      <div className="confirm-actions">
        <button
          type="button"
          className="button button-outline"
          disabled={busy}
          onClick={() => onAnswer(false)}
        >
          {t('payments.authenticate.fail')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => onAnswer(true)}
        >
          {busy && <Spinner />}
          {t('payments.authenticate.complete')}
        </button>
      </div>
    </Modal>
  );
}
