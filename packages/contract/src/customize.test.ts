import { describe, expect, it } from 'vitest';
import { CloneWithAiBody, CUSTOMIZE_MESSAGES, CustomizeBody } from './customize.js';

describe('customization requests', () => {
  it('accepts instructions and structured edits, and refuses invalid edits', () => {
    const ok = CustomizeBody.safeParse({
      customizations: {
        instructions: "  replace 'Acme' with 'Globex'  ",
        ops: [{ op: 'setTitle', title: 'Globex' }],
      },
      regenerate: true,
    });
    expect(ok.success && ok.data.customizations.instructions).toBe("replace 'Acme' with 'Globex'");
    const bad = CustomizeBody.safeParse({
      customizations: { ops: [{ op: 'setAttribute', selector: 'a', name: 'onclick', value: 'x' }] },
    });
    expect(bad.success).toBe(false);
  });

  it('needs an idea for a rewrite and defaults rewriteWithAI to true', () => {
    const missing = CloneWithAiBody.safeParse({
      sourceUrl: 'https://example.com',
      originalIdea: ' ',
    });
    expect(missing.error?.issues[0]?.message).toBe(CUSTOMIZE_MESSAGES.ideaRequired);
    const ok = CloneWithAiBody.parse({
      sourceUrl: 'https://example.com',
      originalIdea: 'A bakery',
    });
    expect(ok.rewriteWithAI).toBe(true);
  });
});
