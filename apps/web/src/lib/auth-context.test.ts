import { describe, expect, it } from 'vitest';
import { getInitials, isPaidUser } from './auth-context';

describe('avatar initials', () => {
  it.each([
    ['Jane Doe', 'JD'],
    ['jane', 'J'],
    ['jane mary doe', 'JM'],
    ['  ada   lovelace  ', 'AL'],
    ['élodie durand', 'ÉD'],
    ['', 'U'],
    ['   ', 'U'],
    [null, 'U'],
    [undefined, 'U'],
  ])('%j → %s', (name, expected) => {
    expect(getInitials(name)).toBe(expected);
  });
});

describe('paid user', () => {
  it('is a user whose plan is set and not free', () => {
    expect(isPaidUser(null)).toBe(false);
    expect(isPaidUser({ plan: 'free' })).toBe(false);
    expect(isPaidUser({ plan: 'pro' })).toBe(true);
    expect(isPaidUser({ plan: 'agency' })).toBe(true);
  });
});
