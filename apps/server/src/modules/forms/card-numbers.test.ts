import type { SiteForm } from '@mirror/engine';
import { describe, expect, it } from 'vitest';
import { holdsCardNumber } from './form-capture.js';

const form = {
  fields: [
    { name: 'contact', type: 'tel', required: false, holds: 'phone' },
    { name: 'message', type: 'textarea', required: false, holds: 'message' },
  ],
} as unknown as SiteForm;

describe('holdsCardNumber: card data is never kept, phone and order numbers are', () => {
  it('finds a card number as a whole value or within a text', () => {
    expect(holdsCardNumber(form, 'card', '4111 1111 1111 1111')).toBe(true);
    expect(holdsCardNumber(form, 'cc', '4111111111111111')).toBe(true);
    expect(holdsCardNumber(form, 'message', 'my card is 5555-5555-5555-4444, exp 12/29')).toBe(
      true,
    );
    expect(holdsCardNumber(form, 'message', 'Amex 3782 822463 10005 please')).toBe(true);
  });

  it('keeps numbers that are no card: Luhn fails, a phone field, a phone in a text', () => {
    expect(holdsCardNumber(form, 'order', '1234567812345678')).toBe(false);
    // 13 digits passing the Luhn check, in a field for a phone number (by its type or its name).
    expect(holdsCardNumber(form, 'contact', '4222222222222')).toBe(false);
    expect(holdsCardNumber(form, 'mobile', '4222222222222')).toBe(false);
    expect(holdsCardNumber(form, 'message', 'call me on +49 1512 3456789 after six')).toBe(false);
    expect(holdsCardNumber(form, 'message', 'Order 20261130 of 3 loaves')).toBe(false);
  });
});
