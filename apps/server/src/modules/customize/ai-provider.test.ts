import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.js';
import { ModelPlannerError } from '../../platform/ai/model-planner.js';
import { createAiProviders, planEdits, rewritesAvailable } from './ai-provider.js';

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

  it('never rewrites without a model; a Reflection rewrite goes to the standard model', async () => {
    expect(rewritesAvailable(loadConfig({ NODE_ENV: 'test' }))).toBe(false);
    expect(
      rewritesAvailable(loadConfig({ NODE_ENV: 'test', AI_BASE_URL: MODEL_ENV.AI_BASE_URL })),
    ).toBe(false);
    expect(rewritesAvailable(loadConfig({ NODE_ENV: 'test', ...MODEL_ENV }))).toBe(true);

    const input = {
      instructions: "replace 'Acme' with 'Globex'",
      entryOutline: undefined,
      outlines: [],
      rewriteFor: 'an online shop for handmade soap. Natural and local.',
    };
    // The built-in engine no longer pastes the idea into the title, description and heading.
    const err = await planEdits({ kind: 'builtin' }, input, 'not available').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ModelPlannerError);
    expect((err as Error).message).toBe('not available');
    // Instructions alone still go to the built-in engine.
    const { rewriteFor: _, ...edit } = input;
    expect((await planEdits({ kind: 'builtin' }, edit, 'not available')).plan.ops).toEqual([
      { op: 'replaceText', find: 'Acme', replace: 'Globex' },
    ]);

    const free = createAiProviders(loadConfig({ NODE_ENV: 'test', ...MODEL_ENV })).providerFor(
      'free',
    );
    expect(free.kind === 'builtin' && free.rewriter?.model).toBe('advanced');
  });
});
