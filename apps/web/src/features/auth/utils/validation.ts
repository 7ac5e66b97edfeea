import { PASSWORD_MIN_LENGTH } from '@mirror/contract';
import type { FieldErrors } from '../../../hooks/use-validated-form';

export { hasErrors, type FieldErrors } from '../../../hooks/use-validated-form';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type LoginField = 'email' | 'password';
export type RegisterField = 'name' | 'email' | 'password' | 'confirmPassword';
export type LoginValues = Record<LoginField, string>;
export type RegisterValues = Record<RegisterField, string>;
export type NewPasswordField = 'password' | 'confirmPassword';
export type NewPasswordValues = Record<NewPasswordField, string>;
/** Values are i18n keys under auth.validation (SPEC §5 texts). */
function validateEmail(email: string): string | undefined {
  if (email.trim() === '') return 'auth.validation.emailRequired';
  if (!EMAIL_PATTERN.test(email.trim())) return 'auth.validation.emailInvalid';
  return undefined;
}

function validatePassword(password: string): string | undefined {
  if (password === '') return 'auth.validation.passwordRequired';
  if (password.length < PASSWORD_MIN_LENGTH) return 'auth.validation.passwordMin';
  return undefined;
}

export function validateLogin(values: LoginValues): FieldErrors<LoginField> {
  return { email: validateEmail(values.email), password: validatePassword(values.password) };
}

function validateConfirmation(password: string, confirmation: string): string | undefined {
  if (confirmation === '') return 'auth.validation.confirmRequired';
  if (confirmation !== password) return 'auth.validation.confirmMatch';
  return undefined;
}

export function validateRegister(values: RegisterValues): FieldErrors<RegisterField> {
  return {
    name: values.name.trim() === '' ? 'auth.validation.nameRequired' : undefined,
    email: validateEmail(values.email),
    password: validatePassword(values.password),
    confirmPassword: validateConfirmation(values.password, values.confirmPassword),
  };
}

/** The new password on the reset page follows the register rules and texts. */
export function validateNewPassword(values: NewPasswordValues): FieldErrors<NewPasswordField> {
  return {
    password: validatePassword(values.password),
    confirmPassword: validateConfirmation(values.password, values.confirmPassword),
  };
}
