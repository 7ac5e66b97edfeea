import { describe, expect, it } from 'vitest';
import { makeReference } from '../../../test/fixtures';
import { canSelectReference, toReferenceItem } from './reference-item';

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
});
