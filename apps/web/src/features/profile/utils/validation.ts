import { PASSWORD_MIN_LENGTH } from '@mirror/contract';
import { hasErrors, type FieldErrors } from '../../../hooks/use-validated-form';

export type ProfileField = 'name' | 'currentPassword' | 'newPassword' | 'confirmNewPassword';
export type ProfileValues = Record<ProfileField, string>;

const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmNewPassword'] as const;

/** Field rules of SPEC §5 (Profile); values are i18n keys under profile.validation. */
export function validateProfile(values: ProfileValues): FieldErrors<ProfileField> {
  const errors: FieldErrors<ProfileField> = {};
  if (values.name.trim() === '') errors.name = 'profile.validation.nameRequired';

  if (values.newPassword !== '' && values.newPassword.length < PASSWORD_MIN_LENGTH) {
    errors.newPassword = 'profile.validation.newPasswordMin';
  } else if (values.newPassword === '' && values.currentPassword !== '') {
    errors.newPassword = 'profile.validation.newPasswordRequired';
  }

  if (values.newPassword !== '' && values.confirmNewPassword === '') {
    errors.confirmNewPassword = 'profile.validation.confirmRequired';
  } else if (values.confirmNewPassword !== '' && values.confirmNewPassword !== values.newPassword) {
    errors.confirmNewPassword = 'profile.validation.confirmMatch';
  }
  return errors;
}

export type ProfileSubmitCheck =
  { ok: true; changesPassword: boolean } | { ok: false; error: string };

/**
 * The form-level verdict on submit: the password block is all or nothing, then the two new
 * passwords must agree, then every field rule must pass.
 */
export function checkProfileSubmit(values: ProfileValues): ProfileSubmitCheck {
  const filled = PASSWORD_FIELDS.filter((field) => values[field] !== '').length;
  if (filled > 0 && filled < PASSWORD_FIELDS.length) {
    return { ok: false, error: 'profile.validation.fillAllPasswords' };
  }
  if (filled > 0 && values.newPassword !== values.confirmNewPassword) {
    return { ok: false, error: 'profile.validation.passwordsDoNotMatch' };
  }
  if (hasErrors(validateProfile(values))) {
    return { ok: false, error: 'profile.validation.correctErrors' };
  }
  return { ok: true, changesPassword: filled > 0 };
}
