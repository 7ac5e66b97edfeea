import { useState, type FormEvent } from 'react';
import { notify } from '../../../lib/toast';
import { PASSWORD_MIN_LENGTH } from '@mirror/contract';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';
import { useLoading } from '../../../lib/loading';
import { login } from '../api/login';
import { resetPassword } from '../api/reset-password';
import { useAfterSignIn } from '../hooks/use-after-sign-in';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { hasErrors, validateLogin, type LoginValues } from '../utils/validation';

const EMPTY: LoginValues = { email: '', password: '' };

export function LoginModal() {
  const { locale, t } = useI18n();
  const { openDialog, closeDialog } = useDialogs();
  const afterSignIn = useAfterSignIn();
  const { withLoading } = useLoading();
  const form = useValidatedForm(EMPTY, validateLogin);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const { values } = form;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    if (values.email.trim() === '' || values.password === '') {
      setFormError(t('auth.validation.fillAllFields'));
      return;
    }
    if (values.password.length < PASSWORD_MIN_LENGTH) {
      setFormError(t('auth.validation.passwordTooShort'));
      return;
    }
    if (hasErrors(form.allErrors)) {
      setFormError(null);
      return;
    }
    setFormError(null);
    setIsSubmitting(true);
    try {
      const answer = await login({
        email: values.email.trim(),
        password: values.password,
        locale,
      });
      afterSignIn(answer, 'login');
    } catch (error) {
      setFormError(getErrorMessage(error, t('auth.errors.loginFailed')));
    } finally {
      setIsSubmitting(false);
    }
  };

  const handleForgotPassword = async () => {
    const email = values.email.trim();
    if (email === '') {
      notify.info(t('auth.forgot.needEmail'));
      return;
    }
    if (form.allErrors.email) {
      form.touch('email');
      return;
    }
    try {
      await withLoading(resetPassword({ email, locale }));
      notify.success(t('toasts.resetSent'));
    } catch (error) {
      console.error('Requesting a password reset failed', error);
      notify.error(t('auth.errors.resetFailed'));
    }
  };

  return (
    <Modal
      title={t('auth.login.title')}
      description={t('auth.login.subtitle')}
      onClose={closeDialog}
    >
      <form className="auth-form" noValidate onSubmit={handleSubmit}>
        {formError && (
          <div className="alert alert-error" role="alert">
            {formError}
          </div>
        )}
        <FormField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          placeholder={t('auth.fields.emailPlaceholder')}
          {...form.field('email')}
          required
        />
        <FormField
          label={t('auth.fields.password')}
          type="password"
          autoComplete="current-password"
          {...form.field('password')}
          required
        />
        <div className="auth-row">
          <button type="button" className="link-button" onClick={handleForgotPassword}>
            {t('auth.login.forgotPassword')}
          </button>
        </div>
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={isSubmitting}
          aria-busy={isSubmitting || undefined}
        >
          {isSubmitting && <Spinner />}
          {isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
        </button>
        <p className="auth-switch">
          {t('auth.login.noAccount')}{' '}
          <button type="button" className="link-button" onClick={() => openDialog('register')}>
            {t('auth.login.switchToRegister')}
          </button>
        </p>
      </form>
    </Modal>
  );
}
