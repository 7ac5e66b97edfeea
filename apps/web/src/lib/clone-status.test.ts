import { describe, expect, it } from 'vitest';
import { CLONE_STATUS_TEXTS, CUSTOMIZE_STATUS_TEXTS } from '@mirror/contract';
import { progressTextKey } from './clone-status';

describe('progress texts', () => {
  it('knows the key of every mirror and customization text', () => {
    expect(progressTextKey(CLONE_STATUS_TEXTS.cloning)).toBe('mirror.progress.cloning');
    expect(progressTextKey(CUSTOMIZE_STATUS_TEXTS.draftReady)).toBe(
      'mirror.customizeProgress.draftReady',
    );
    expect(progressTextKey('something new')).toBeNull();
  });
});
