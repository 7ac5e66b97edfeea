import { PASSWORD_MIN_LENGTH } from '@mirror/contract';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type LoginField = 'email' | 'password';
export type RegisterField = 'name' | 'email' | 'password' | 'confirmPassword';
export type LoginValues = Record<LoginField, string>;
export type RegisterValues = Record<RegisterField, string>;
/** Values are i18n keys under auth.validation (SPEC §5 texts). */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

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

export function validateRegister(values: RegisterValues): FieldErrors<RegisterField> {
  let confirmPassword: string | undefined;
  if (values.confirmPassword === '') confirmPassword = 'auth.validation.confirmRequired';
  else if (values.confirmPassword !== values.password)
    confirmPassword = 'auth.validation.confirmMatch';
  return {
    name: values.name.trim() === '' ? 'auth.validation.nameRequired' : undefined,
    email: validateEmail(values.email),
    password: validatePassword(values.password),
    confirmPassword,
  };
}

export function hasErrors<F extends string>(errors: FieldErrors<F>): boolean {
  return Object.values(errors).some(Boolean);
}
