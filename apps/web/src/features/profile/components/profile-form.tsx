import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/form-field';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { getErrorMessage } from '../../../lib/api-client';
import { useAuth, type User } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { changePassword } from '../api/change-password';
import { updateProfile } from '../api/update-profile';
import { checkProfileSubmit, validateProfile, type ProfileField } from '../utils/validation';

const NO_PASSWORDS = { currentPassword: '', newPassword: '', confirmNewPassword: '' };

export function ProfileForm({ user }: { user: User }) {
  const { locale, t } = useI18n();
  const { updateUser } = useAuth();
  const form = useValidatedForm<ProfileField>(
    { name: user.name, ...NO_PASSWORDS },
    validateProfile,
  );
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const { values } = form;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    const check = checkProfileSubmit(values);
    if (!check.ok) {
      setFormError(t(check.error));
      return;
    }
    setFormError(null);
    setIsSaving(true);
    try {
      // The password first: a wrong current password then leaves nothing half saved.
      if (check.changesPassword) {
        await changePassword({
          currentPassword: values.currentPassword,
          newPassword: values.newPassword,
        });
      }
      const answer = await updateProfile({ name: values.name.trim(), locale });
      updateUser(answer.user);
      form.reset({ name: answer.user.name, ...NO_PASSWORDS });
      notify.success(
        t(check.changesPassword ? 'profile.toasts.updatedWithPassword' : 'profile.toasts.updated'),
      );
    } catch (error) {
      setFormError(getErrorMessage(error, t('profile.toasts.updateFailed')));
      notify.error(t('profile.toasts.updateFailed'));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit}>
      {formError && (
        <div className="alert alert-error" role="alert">
          {formError}
        </div>
      )}
      <Panel title={t('profile.personal.title')} description={t('profile.personal.description')}>
        <FormField
          label={t('profile.fields.name')}
          type="text"
          autoComplete="name"
          required
          {...form.field('name')}
        />
        <FormField
          label={t('profile.fields.email')}
          name="email"
          type="email"
          value={user.email}
          readOnly
          hint={t('profile.fields.emailHint')}
        />
      </Panel>
      <Panel title={t('profile.password.title')} description={t('profile.password.description')}>
        <FormField
          label={t('profile.fields.currentPassword')}
          type="password"
          autoComplete="current-password"
          {...form.field('currentPassword')}
        />
        <div className="field-grid">
          <FormField
            label={t('profile.fields.newPassword')}
            type="password"
            autoComplete="new-password"
            {...form.field('newPassword')}
          />
          <FormField
            label={t('profile.fields.confirmNewPassword')}
            type="password"
            autoComplete="new-password"
            {...form.field('confirmNewPassword')}
          />
        </div>
      </Panel>
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={isSaving}
          aria-busy={isSaving || undefined}
        >
          {isSaving && <Spinner />}
          {isSaving ? t('profile.saving') : t('profile.save')}
        </button>
      </div>
    </form>
  );
}
