import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './limits.js';
import { LOCALE_CODES } from './locales.js';
import { AUTH_MESSAGES } from './messages.js';
import { PLAN_IDS } from './plans.js';

/** A string field whose absence and emptiness both read as "required". */
function requiredString(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true });
}

export const EmailField = requiredString(AUTH_MESSAGES.emailRequired)
  .max(254, { error: AUTH_MESSAGES.emailInvalid, abort: true })
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }))
  .transform((email) => email.toLowerCase());

export const NewPasswordField = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, { error: AUTH_MESSAGES.passwordRequired, abort: true })
  .min(PASSWORD_MIN_LENGTH, { error: AUTH_MESSAGES.passwordTooShort })
  .max(256, { error: AUTH_MESSAGES.passwordTooLong });

const NameField = requiredString(AUTH_MESSAGES.nameRequired).max(100, AUTH_MESSAGES.nameTooLong);

export const LocaleField = z.enum(LOCALE_CODES);

const DemoSiteId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: AUTH_MESSAGES.demoIdsInvalid });

export const DemoSiteIds = z
  .array(DemoSiteId, { error: AUTH_MESSAGES.demoIdsInvalid })
  .max(50, { error: AUTH_MESSAGES.demoIdsInvalid });

export const RegisterBody = z.object({
  name: NameField,
  email: EmailField,
  password: NewPasswordField,
  locale: LocaleField.optional(),
  demoSiteIds: DemoSiteIds.optional(),
});
export type RegisterBody = z.input<typeof RegisterBody>;

export const LoginBody = z.object({
  email: EmailField,
  password: z
    .string({ error: AUTH_MESSAGES.passwordRequired })
    .min(1, { error: AUTH_MESSAGES.passwordRequired, abort: true })
    .max(256, { error: AUTH_MESSAGES.passwordTooLong }),
  locale: LocaleField.optional(),
  demoSiteIds: DemoSiteIds.optional(),
});
export type LoginBody = z.input<typeof LoginBody>;

export const THEMES = ['light', 'dark', 'system'] as const;

/** App settings (SPEC §3): kept on the account so they follow the user, mirrored in local storage. */
export const UserSettings = z.object({
  notifications: z.object({ email: z.boolean(), push: z.boolean() }),
  appearance: z.object({ theme: z.enum(THEMES) }),
});
export type UserSettings = z.infer<typeof UserSettings>;

export const UserDto = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  plan: z.enum(PLAN_IDS),
  locale: LocaleField.nullable(),
  settings: UserSettings,
  createdAt: z.string(),
});
export type UserDto = z.infer<typeof UserDto>;

export const DemoSitesClaimed = z.object({ success: z.boolean(), claimedCount: z.number().int() });

export const AuthResponse = z.object({
  user: UserDto,
  token: z.string(),
  demoSitesClaimed: DemoSitesClaimed.optional(),
});
export type AuthResponse = z.infer<typeof AuthResponse>;

export const MeResponse = z.object({ user: UserDto });
export type MeResponse = z.infer<typeof MeResponse>;

export const MessageResponse = z.object({ success: z.boolean(), message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const ResetPasswordBody = z.object({ email: EmailField, locale: LocaleField.optional() });
export type ResetPasswordBody = z.input<typeof ResetPasswordBody>;

export const ResetPasswordConfirmBody = z.object({
  token: z
    .string({ error: AUTH_MESSAGES.resetTokenInvalid })
    .min(1, AUTH_MESSAGES.resetTokenInvalid)
    .max(200),
  password: NewPasswordField,
});
export type ResetPasswordConfirmBody = z.input<typeof ResetPasswordConfirmBody>;

export const UpdateProfileBody = z.object({
  name: requiredString(AUTH_MESSAGES.profileNameRequired).max(100, AUTH_MESSAGES.nameTooLong),
  locale: LocaleField.optional(),
});
export type UpdateProfileBody = z.input<typeof UpdateProfileBody>;

export const ChangePasswordBody = z.object({
  currentPassword: z
    .string({ error: AUTH_MESSAGES.currentPasswordRequired })
    .min(1, AUTH_MESSAGES.currentPasswordRequired)
    .max(256, AUTH_MESSAGES.passwordTooLong),
  newPassword: z
    .string({ error: AUTH_MESSAGES.newPasswordTooShort })
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.newPasswordTooShort)
    .max(256, AUTH_MESSAGES.passwordTooLong),
});
export type ChangePasswordBody = z.input<typeof ChangePasswordBody>;

/** Deleting the account asks for its password again: a session left open is not enough. */
export const DeleteAccountBody = z.object(
  {
    password: z
      .string({ error: AUTH_MESSAGES.passwordRequired })
      .min(1, AUTH_MESSAGES.passwordRequired)
      .max(256, AUTH_MESSAGES.passwordTooLong),
  },
  { error: AUTH_MESSAGES.passwordRequired },
);
export type DeleteAccountBody = z.input<typeof DeleteAccountBody>;

export const ClaimDemosBody = z.object({
  demoSiteIds: DemoSiteIds,
  /** The demo the visitor acted on ("Register to customize"): claimed before any other. */
  firstId: DemoSiteId.optional(),
});
export type ClaimDemosBody = z.input<typeof ClaimDemosBody>;

export const ClaimDemosResponse = z.object({
  success: z.boolean(),
  claimedIds: z.array(z.string()),
  message: z.string(),
});
export type ClaimDemosResponse = z.infer<typeof ClaimDemosResponse>;
