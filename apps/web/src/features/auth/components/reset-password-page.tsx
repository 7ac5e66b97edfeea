import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormField } from '../../../components/ui/form-field';
import '../../../components/ui/panel.css';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { hasErrors, useValidatedForm } from '../../../hooks/use-validated-form';
import { getErrorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useDocumentMeta } from '../../../lib/document-meta';
import { getLocaleInfo, useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { confirmPasswordReset } from '../api/confirm-password-reset';
import { validateNewPassword, type NewPasswordValues } from '../utils/validation';

const EMPTY: NewPasswordValues = { password: '', confirmPassword: '' };

/** Opened from the reset mail: /reset-password?token=… sets a new password. */
export function ResetPasswordPage() {
  const { locale, t } = useI18n();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const form = useValidatedForm(EMPTY, validateNewPassword);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const { values } = form;

  useDocumentMeta({
    title: t('meta.resetPassword.title'),
    description: t('meta.resetPassword.description'),
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    if (hasErrors(form.allErrors)) {
      setFormError(null);
      return;
    }
    setFormError(null);
    setIsSubmitting(true);
    try {
      const answer = await confirmPasswordReset({ token, password: values.password });
      // The server signed out every session, this browser's included.
      signOut();
      notify.success(answer.message);
      void navigate(paths.login.getHref(), { replace: true });
    } catch (error) {
      setFormError(getErrorMessage(error, t('resetPassword.failed')));
      setIsSubmitting(false);
    }
  };

  return (
    <div className="page container narrow-page">
      <h1 className="page-title">{t('resetPassword.title')}</h1>
      {token === '' ? (
        <>
          <div className="alert alert-error" role="alert">
            {t('resetPassword.invalidLink')}
          </div>
          <Link className="button button-primary" to={getLocaleInfo(locale).homePath}>
            {t('common.backToHome')}
          </Link>
        </>
      ) : (
        <>
          <p className="page-lead">{t('resetPassword.lead')}</p>
          <form className="panel auth-form" noValidate onSubmit={handleSubmit}>
            {formError && (
              <div className="alert alert-error" role="alert">
                {formError}
              </div>
            )}
            <FormField
              label={t('resetPassword.newPassword')}
              type="password"
              autoComplete="new-password"
              {...form.field('password')}
              required
            />
            <FormField
              label={t('resetPassword.confirmPassword')}
              type="password"
              autoComplete="new-password"
              {...form.field('confirmPassword')}
              required
            />
            <button
              type="submit"
              className="button button-primary button-block"
              disabled={isSubmitting}
              aria-busy={isSubmitting || undefined}
            >
              {isSubmitting && <Spinner />}
              {isSubmitting ? t('resetPassword.submitting') : t('resetPassword.submit')}
            </button>
          </form>
        </>
      )}
    </div>
  );
}
