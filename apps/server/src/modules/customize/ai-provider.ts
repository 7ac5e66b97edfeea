import { getPlan, type EditPlan, type PlanId } from '@mirror/contract';
import { parseInstructions, type PageOutline } from '@mirror/customize';
import type { Config } from '../../config/env.js';
import {
  createModelPlanner,
  ModelPlannerError,
  type ModelPlanner,
} from '../../platform/ai/model-planner.js';

/**
 * Who turns instructions into an edit plan, by plan tier (SPEC §6): Reflection gets the built-in
 * engine ("basic"), Pro the configured model ("advanced"), Agency the premium model when set
 * ("premium"). Without a model (AI_BASE_URL and AI_MODEL) everyone's instructions go to the
 * built-in engine. A rewrite for an idea always needs a model: the built-in engine cannot write
 * copy, so a Reflection site's paid rewrite goes to the standard model (`rewriter`), and without
 * any model rewrites are not offered at all (`rewritesAvailable`).
 */
export type AiProvider =
  { kind: 'builtin'; rewriter?: ModelPlanner } | { kind: 'model'; planner: ModelPlanner };

/** Whether this server can rewrite a site for an idea: a model is configured. */
export function rewritesAvailable(config: Pick<Config, 'ai'>): boolean {
  return Boolean(config.ai.baseUrl && config.ai.model);
}

export interface PlanningInput {
  instructions: string;
  /** Outline of the entry page: names in built-in instructions resolve against it. */
  entryOutline: PageOutline | undefined;
  /** What a model sees: the entry page and a few top pages, bounded. */
  outlines: PageOutline[];
  /** A full rewrite of the copy for this idea. */
  rewriteFor?: string;
}

export interface PlanningResult {
  plan: EditPlan;
  unparsed: string[];
  notes: string[];
}

export function createAiProviders(config: Config) {
  const { baseUrl, apiKey, model, premiumModel, timeoutMs } = config.ai;
  const planners = new Map<string, ModelPlanner>();
  const plannerFor = (name: string) => {
    let planner = planners.get(name);
    if (!planner) {
      planner = createModelPlanner({
        baseURL: baseUrl!,
        ...(apiKey ? { apiKey } : {}),
        model: name,
        timeoutMs,
      });
      planners.set(name, planner);
    }
    return planner;
  };

  return {
    /** The one place that maps a user's plan to a provider. */
    providerFor(plan: PlanId): AiProvider {
      const tier = getPlan(plan).aiTier;
      if (!baseUrl || !model) return { kind: 'builtin' };
      if (tier === 'basic') return { kind: 'builtin', rewriter: plannerFor(model) };
      return {
        kind: 'model',
        planner: plannerFor(tier === 'premium' ? (premiumModel ?? model) : model),
      };
    },
  };
}

export type AiProviders = ReturnType<typeof createAiProviders>;

/**
 * Plans the edits of one run. Instructions alone go to the plan's provider; a rewrite for an idea
 * (with the owner's instructions, which the model is told to follow) always goes to a model. A
 * rewrite that finds no model (it was removed after the run was queued) fails with `rewriteNote`
 * and changes nothing: the built-in engine never pretends to rewrite.
 */
export async function planEdits(
  provider: AiProvider,
  input: PlanningInput,
  rewriteNote: string,
): Promise<PlanningResult> {
  // Only structured edits (a re-mirror re-applying what was changed before): nothing to plan.
  if (!input.instructions.trim() && !input.rewriteFor) {
    return { plan: { ops: [] }, unparsed: [], notes: [] };
  }
  const planner =
    provider.kind === 'model' ? provider.planner : input.rewriteFor ? provider.rewriter : undefined;
  if (!planner) {
    if (input.rewriteFor) throw new ModelPlannerError('unavailable', rewriteNote);
    return parseInstructions(input.instructions, input.entryOutline);
  }
  const outline = input.outlines.length === 1 ? input.outlines[0] : { pages: input.outlines };
  const { plan, unparsed } = await planner.plan({
    instructions: input.instructions,
    outline,
    ...(input.rewriteFor ? { rewriteFor: input.rewriteFor } : {}),
  });
  return { plan, unparsed, notes: [] };
}
