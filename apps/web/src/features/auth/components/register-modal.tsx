import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@mirror/contract';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';
import { register } from '../api/register';
import { useAfterSignIn } from '../hooks/use-after-sign-in';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { hasErrors, validateRegister, type RegisterValues } from '../utils/validation';

const EMPTY: RegisterValues = { name: '', email: '', password: '', confirmPassword: '' };

export function RegisterModal() {
  const { locale, t } = useI18n();
  const { openDialog, closeDialog } = useDialogs();
  const afterSignIn = useAfterSignIn();
  const form = useValidatedForm(EMPTY, validateRegister);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const { values } = form;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    if (Object.values(values).some((value) => value.trim() === '')) {
      setFormError(t('auth.validation.fillAllFields'));
      return;
    }
    if (values.password.length < PASSWORD_MIN_LENGTH) {
      setFormError(t('auth.validation.passwordTooShort'));
      return;
    }
    if (values.password !== values.confirmPassword) {
      setFormError(t('auth.validation.passwordsDoNotMatch'));
      return;
    }
    if (hasErrors(form.allErrors)) {
      setFormError(null);
      return;
    }
    setFormError(null);
    setIsSubmitting(true);
    try {
      const answer = await register({
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
        locale,
      });
      afterSignIn(answer, 'register');
    } catch (error) {
      setFormError(getErrorMessage(error, t('auth.errors.registrationFailed')));
    } finally {
      setIsSubmitting(false);
    }
  };

  const field = (name: keyof RegisterValues) => ({ ...form.field(name), required: true });

  return (
    <Modal
      title={t('auth.register.title')}
      description={t('auth.register.subtitle')}
      onClose={closeDialog}
    >
      <form className="auth-form" noValidate onSubmit={handleSubmit}>
        {formError && (
          <div className="alert alert-error" role="alert">
            {formError}
          </div>
        )}
        <FormField
          label={t('auth.fields.name')}
          type="text"
          autoComplete="name"
          placeholder={t('auth.fields.namePlaceholder')}
          {...field('name')}
        />
        <FormField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          placeholder={t('auth.fields.emailPlaceholder')}
          {...field('email')}
        />
        <FormField
          label={t('auth.fields.password')}
          type="password"
          autoComplete="new-password"
          {...field('password')}
        />
        <FormField
          label={t('auth.fields.confirmPassword')}
          type="password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={isSubmitting}
          aria-busy={isSubmitting || undefined}
        >
          {isSubmitting && <Spinner />}
          {isSubmitting ? t('auth.register.submitting') : t('auth.register.submit')}
        </button>
        <p className="auth-switch">
          {t('auth.register.haveAccount')}{' '}
          <button type="button" className="link-button" onClick={() => openDialog('login')}>
            {t('auth.register.switchToLogin')}
          </button>
        </p>
      </form>
    </Modal>
  );
}
