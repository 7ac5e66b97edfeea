import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Panel } from '../../../components/ui/panel';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { useLoading } from '../../../lib/loading';
import { notify } from '../../../lib/toast';
import { deleteAccount } from '../api/delete-account';
import { writeLocalSettings } from '../utils/local-settings';

type Step = 'idle' | 'first' | 'last';

/** Danger zone: deleting the account takes two confirmations; declining either cancels. */
export function DeleteAccount() {
  const { t } = useI18n();
  const { signOut } = useAuth();
  const { withLoading } = useLoading();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('idle');
  const buttonRef = useRef<HTMLButtonElement>(null);

  const handleCancel = () => {
    setStep('idle');
    buttonRef.current?.focus();
    notify.info(t('settings.danger.cancelled'));
  };

  const handleDelete = async () => {
    setStep('idle');
    try {
      const answer = await withLoading(deleteAccount());
      signOut();
      writeLocalSettings(null);
      notify.success(answer.message);
      void navigate(paths.home.getHref());
    } catch (error) {
      buttonRef.current?.focus();
      notify.error(getErrorMessage(error, t('settings.danger.failed')));
    }
  };

  return (
    <Panel
      tone="danger"
      title={t('settings.danger.title')}
      description={t('settings.danger.description')}
    >
      <div className="panel-actions">
        <button
          ref={buttonRef}
          type="button"
          className="button button-outline-danger"
          onClick={() => setStep('first')}
        >
          {t('settings.danger.delete')}
        </button>
      </div>
      {step === 'first' && (
        <ConfirmDialog
          key="first"
          danger
          title={t('settings.danger.confirmTitle')}
          message={t('settings.danger.confirmFirst')}
          confirmLabel={t('settings.danger.delete')}
          cancelLabel={t('settings.danger.keep')}
          onConfirm={() => setStep('last')}
          onCancel={handleCancel}
        />
      )}
      {step === 'last' && (
        <ConfirmDialog
          key="last"
          danger
          title={t('settings.danger.lastTitle')}
          message={t('settings.danger.confirmLast')}
          confirmLabel={t('settings.danger.deleteForever')}
          cancelLabel={t('settings.danger.keep')}
          onConfirm={() => void handleDelete()}
          onCancel={handleCancel}
        />
      )}
    </Panel>
  );
}
