import { describe, expect, it } from 'vitest';
import { checkProfileSubmit, validateProfile, type ProfileValues } from './validation';

const values = (overrides: Partial<ProfileValues> = {}): ProfileValues => ({
  name: 'Ada Lovelace',
  currentPassword: '',
  newPassword: '',
  confirmNewPassword: '',
  ...overrides,
});

describe('profile field rules', () => {
  it('accepts a name with the password block left blank', () => {
    expect(validateProfile(values())).toEqual({});
  });

  it('requires the full name', () => {
    expect(validateProfile(values({ name: '   ' })).name).toBe('profile.validation.nameRequired');
  });

  it('asks for a new password once the current one is entered', () => {
    expect(validateProfile(values({ currentPassword: 'old-secret' })).newPassword).toBe(
      'profile.validation.newPasswordRequired',
    );
  });

  it('wants at least 8 characters for the new password', () => {
    expect(validateProfile(values({ newPassword: 'short' })).newPassword).toBe(
      'profile.validation.newPasswordMin',
    );
    expect(validateProfile(values({ newPassword: '12345678' })).newPassword).toBeUndefined();
  });

  it('wants the new password confirmed, and confirmed the same', () => {
    expect(validateProfile(values({ newPassword: 'new-secret' })).confirmNewPassword).toBe(
      'profile.validation.confirmRequired',
    );
    expect(
      validateProfile(values({ newPassword: 'new-secret', confirmNewPassword: 'new-secreT' }))
        .confirmNewPassword,
    ).toBe('profile.validation.confirmMatch');
    expect(
      validateProfile(values({ newPassword: 'new-secret', confirmNewPassword: 'new-secret' })),
    ).toEqual({});
  });
});

describe('profile submit verdict', () => {
  it.each([
    [{ currentPassword: 'old-secret' }, 'profile.validation.fillAllPasswords'],
    [
      { newPassword: 'new-secret', confirmNewPassword: 'new-secret' },
      'profile.validation.fillAllPasswords',
    ],
    [{ confirmNewPassword: 'new-secret' }, 'profile.validation.fillAllPasswords'],
    [
      { currentPassword: 'old-secret', newPassword: 'new-secret', confirmNewPassword: 'other-one' },
      'profile.validation.passwordsDoNotMatch',
    ],
    [
      { currentPassword: 'old-secret', newPassword: 'short', confirmNewPassword: 'short' },
      'profile.validation.correctErrors',
    ],
    [{ name: '' }, 'profile.validation.correctErrors'],
  ])('%j → %s', (overrides, error) => {
    expect(checkProfileSubmit(values(overrides))).toEqual({ ok: false, error });
  });

  it('saves the name alone, or the name and a complete password change', () => {
    expect(checkProfileSubmit(values())).toEqual({ ok: true, changesPassword: false });
    expect(
      checkProfileSubmit(
        values({
          currentPassword: 'old-secret',
          newPassword: 'new-secret',
          confirmNewPassword: 'new-secret',
        }),
      ),
    ).toEqual({ ok: true, changesPassword: true });
  });
});
