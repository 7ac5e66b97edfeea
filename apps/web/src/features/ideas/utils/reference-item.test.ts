import { describe, expect, it } from 'vitest';
import { makeReference } from '../../../test/fixtures';
import { canSelectReference, formatPrice, toReferenceItem } from './reference-item';

describe('reference items', () => {
  it('start without a clone and can be selected then, or again after a failed clone', () => {
    const item = toReferenceItem(makeReference());
    expect(item).toMatchObject({ cloneStatus: null, cloneId: null });
    expect(canSelectReference(item)).toBe(true);
    expect(canSelectReference({ cloneStatus: 'failed' })).toBe(true);
    for (const cloneStatus of ['cloning', 'completed'] as const) {
      expect(canSelectReference({ cloneStatus })).toBe(false);
    }
  });

  it('write the rewrite price as the SPEC does, decimals only when needed', () => {
    expect(formatPrice('en', 200, 'usd')).toBe('$2');
    expect(formatPrice('en', 350, 'usd')).toBe('$3.50');
    expect(formatPrice('es', 200, 'usd')).toMatch(/^2\s?US\$$/);
  });
});
