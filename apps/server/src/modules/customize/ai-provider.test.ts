import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.js';
import { createAiProviders, planEdits } from './ai-provider.js';

const MODEL_ENV = { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'advanced' };

function tiers(env: Record<string, string>) {
  const providers = createAiProviders(loadConfig({ NODE_ENV: 'test', ...env }));
  return (['free', 'pro', 'agency'] as const).map((plan) => {
    const provider = providers.providerFor(plan);
    return provider.kind === 'model' ? provider.planner.model : 'builtin';
  });
}

describe('AI provider by plan', () => {
  it('gives Reflection the built-in engine, Pro the model, Agency the premium model', () => {
    expect(tiers({})).toEqual(['builtin', 'builtin', 'builtin']);
    expect(tiers({ AI_BASE_URL: MODEL_ENV.AI_BASE_URL })).toEqual([
      'builtin',
      'builtin',
      'builtin',
    ]);
    expect(tiers(MODEL_ENV)).toEqual(['builtin', 'advanced', 'advanced']);
    expect(tiers({ ...MODEL_ENV, AI_MODEL_PREMIUM: 'premium' })).toEqual([
      'builtin',
      'advanced',
      'premium',
    ]);
  });

  it('reads the AI settings with their defaults', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.ai).toMatchObject({ timeoutMs: 60_000, rewritePriceCents: 200 });
  });

  it('rewrites honestly without a model: title, description, main heading, and a note', async () => {
    const result = await planEdits(
      { kind: 'builtin' },
      {
        instructions: "replace 'Acme' with 'Globex'",
        entryOutline: {
          path: '/',
          sections: [],
          headings: [{ level: 1, text: 'Rockets', selector: 'h1' }],
          texts: [],
          links: [],
          images: [],
          palette: [],
          roles: {},
          fonts: [],
        },
        outlines: [],
        rewriteFor: 'an online shop for handmade soap. Natural and local.',
      },
      'needs a model',
    );
    expect(result.plan.ops).toEqual([
      { op: 'setTitle', title: 'An online shop for handmade soap' },
      {
        op: 'setDescription',
        description: 'an online shop for handmade soap. Natural and local.',
      },
      { op: 'setText', selector: 'h1', text: 'An online shop for handmade soap', pages: ['/'] },
      { op: 'replaceText', find: 'Acme', replace: 'Globex' },
    ]);
    expect(result.unparsed).toEqual(['needs a model']);
  });
});
