import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { Panel } from '../../../components/ui/panel';
import { paths } from '../../../config/paths';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { useLoading } from '../../../lib/loading';
import { notify } from '../../../lib/toast';
import { deleteAccount } from '../api/delete-account';
import { writeLocalSettings } from '../utils/local-settings';

type Step = 'idle' | 'password' | 'first' | 'last';

/**
 * Danger zone: deleting the account asks for the password, then takes two confirmations;
 * declining any step cancels. A wrong password brings the password step back.
 */
export function DeleteAccount() {
  const { t } = useI18n();
  const { signOut } = useAuth();
  const { withLoading } = useLoading();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('idle');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const buttonRef = useRef<HTMLButtonElement>(null);

  const handleStart = () => {
    setPassword('');
    setPasswordError(undefined);
    setStep('password');
  };

  const handleCancel = () => {
    setStep('idle');
    setPassword('');
    buttonRef.current?.focus();
    notify.info(t('settings.danger.cancelled'));
  };

  const handlePassword = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') {
      setPasswordError(t('settings.danger.passwordRequired'));
      return;
    }
    setPasswordError(undefined);
    setStep('first');
  };

  const handleDelete = async () => {
    setStep('idle');
    try {
      const answer = await withLoading(deleteAccount({ password }));
      signOut();
      writeLocalSettings(null);
      notify.success(answer.message);
      void navigate(paths.home.getHref());
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        // The only thing a signed-in person can get wrong here is the password.
        setPassword('');
        setPasswordError(t('settings.danger.passwordWrong'));
        setStep('password');
        return;
      }
      setPassword('');
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
          onClick={handleStart}
        >
          {t('settings.danger.delete')}
        </button>
      </div>
      {step === 'password' && (
        <Modal
          title={t('settings.danger.passwordTitle')}
          description={t('settings.danger.passwordMessage')}
          onClose={handleCancel}
        >
          <form noValidate onSubmit={handlePassword}>
            <FormField
              label={t('settings.danger.password')}
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              error={passwordError}
              onChange={(event) => setPassword(event.target.value)}
            />
            <div className="confirm-actions">
              <button type="button" className="button button-outline" onClick={handleCancel}>
                {t('settings.danger.keep')}
              </button>
              <button type="submit" className="button button-danger">
                {t('settings.danger.continue')}
              </button>
            </div>
          </form>
        </Modal>
      )}
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
