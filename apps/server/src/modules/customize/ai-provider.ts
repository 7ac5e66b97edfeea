import { getPlan, type EditPlan, type PlanId } from '@mirror/contract';
import { parseInstructions, type PageOutline } from '@mirror/engine';
import type { Config } from '../../config/env.js';
import { createModelPlanner, type ModelPlanner } from '../../platform/ai/model-planner.js';

/**
 * Who turns instructions into an edit plan, by plan tier (SPEC §6): Reflection gets the built-in
 * engine ("basic"), Pro the configured model ("advanced"), Agency the premium model when set
 * ("premium"). Without AI_BASE_URL and AI_MODEL everyone gets the built-in engine.
 */
export type AiProvider = { kind: 'builtin' } | { kind: 'model'; planner: ModelPlanner };

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
      if (tier === 'basic' || !baseUrl || !model) return { kind: 'builtin' };
      return {
        kind: 'model',
        planner: plannerFor(tier === 'premium' ? (premiumModel ?? model) : model),
      };
    },
  };
}

export type AiProviders = ReturnType<typeof createAiProviders>;

/** A title from an idea: its first sentence, capitalized, cut at a word before 70 characters. */
function titleOf(idea: string): string {
  const first = idea
    .split(/(?<=[.!?])\s|\n/)[0]!
    .replace(/[.!?]+$/, '')
    .trim();
  const cut = first.length > 70 ? first.slice(0, 70).replace(/\s+\S*$/, '') : first;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

/**
 * The built-in engine cannot write copy. For a rewrite it does what it honestly can: the idea
 * becomes the title, description and main heading, explicit instructions are applied, and the
 * answer says that a full rewrite needs a model.
 */
function planBuiltin(input: PlanningInput, rewriteNote: string): PlanningResult {
  const parsed = input.instructions
    ? parseInstructions(input.instructions, input.entryOutline)
    : { plan: { ops: [] }, unparsed: [], notes: [] };
  if (!input.rewriteFor) return parsed;
  const idea = input.rewriteFor;
  const title = titleOf(idea);
  const h1 = input.entryOutline?.headings.find((h) => h.level === 1);
  const page = input.entryOutline?.path ?? '/';
  return {
    plan: {
      ops: [
        { op: 'setTitle', title },
        { op: 'setDescription', description: idea.slice(0, 300) },
        ...(h1
          ? [{ op: 'setText' as const, selector: h1.selector, text: title, pages: [page] }]
          : []),
        ...parsed.plan.ops,
      ],
    },
    unparsed: [...parsed.unparsed, rewriteNote],
    notes: parsed.notes,
  };
}

export async function planEdits(
  provider: AiProvider,
  input: PlanningInput,
  rewriteNote: string,
): Promise<PlanningResult> {
  // Only structured edits (a re-mirror re-applying what was changed before): nothing to plan.
  if (!input.instructions.trim() && !input.rewriteFor) {
    return { plan: { ops: [] }, unparsed: [], notes: [] };
  }
  if (provider.kind === 'builtin') return planBuiltin(input, rewriteNote);
  const outline = input.outlines.length === 1 ? input.outlines[0] : { pages: input.outlines };
  const { plan, unparsed } = await provider.planner.plan({
    instructions: input.instructions,
    outline,
    ...(input.rewriteFor ? { rewriteFor: input.rewriteFor } : {}),
  });
  return { plan, unparsed, notes: [] };
}
