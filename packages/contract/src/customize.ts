import { z } from 'zod';
import { EDIT_PLAN_LIMITS, EditOp } from './edit-plan.js';
import { IDEA_MAX_LENGTH } from './ideas.js';
import { CloneRequestBody } from './sites.js';

/**
 * AI customization over the API (issue 6): customize a site's live version, rewrite a reference
 * for an idea (into a draft), the rewrite's price. Each run makes a new version that keeps its plan.
 */

export const CUSTOMIZE_MESSAGES = {
  /** SPEC §4/§8: AI rewrite for a user who is neither on a paid plan nor has paid for it. */
  paymentRequired:
    'Payment required for AI rewrite. Upgrade to Mirror Pro or pay the one-off $2 to rewrite this site.',
  demoRefused: 'Demo sites cannot be customized. Sign in and claim the demo to customize it.',
  signInForRewrite: 'Please log in to create a website from an idea.',
  nothingToApply: 'Please provide instructions or changes to apply.',
  instructionsTooLong: `Instructions can be at most ${EDIT_PLAN_LIMITS.maxTextLength} characters long.`,
  ideaRequired: 'Please describe your website idea.',
  ideaTooLong: `Please describe your idea in at most ${IDEA_MAX_LENGTH} characters.`,
  noLiveVersion: 'This site has no completed mirror yet. Please wait for the mirror to finish.',
  busy: 'This site is busy with another run. Please wait for it to finish.',
  notDraft: 'Only a draft can be discarded.',
  liveVersion: 'The live version cannot be discarded.',
  versionNotFound: 'Version not found.',
  rateLimited: 'Too many customizations. Please wait a few minutes and try again.',
  /** Said in a rewrite's `unparsed` when only the built-in engine is available. */
  rewriteNeedsModel:
    'A full rewrite of the copy needs an AI model (AI_BASE_URL); the built-in engine set the title, description and main heading from your idea.',
  failed: 'Customization failed',
} as const;

const Instructions = z
  .string()
  .trim()
  .max(EDIT_PLAN_LIMITS.maxTextLength, CUSTOMIZE_MESSAGES.instructionsTooLong);

/** What a customization asks for: instructions in plain language and/or structured edits. */
export const Customizations = z.object({
  instructions: Instructions.optional(),
  ops: z.array(EditOp).max(EDIT_PLAN_LIMITS.maxOps).optional(),
});
export type Customizations = z.infer<typeof Customizations>;

/** PUT /domains/clone/{id}/customize (SPEC §7). */
export const CustomizeBody = z.object({
  customizations: Customizations,
  regenerate: z.boolean().optional(),
});
export type CustomizeBody = z.input<typeof CustomizeBody>;

/** POST /domains/clone-with-ai (SPEC §3 AI rewrite request, §7). */
export const CloneWithAiBody = z.object({
  sourceUrl: CloneRequestBody.shape.sourceUrl,
  aiInstructions: Instructions.optional(),
  originalIdea: z
    .string({ error: CUSTOMIZE_MESSAGES.ideaRequired })
    .trim()
    .min(1, CUSTOMIZE_MESSAGES.ideaRequired)
    .max(IDEA_MAX_LENGTH, CUSTOMIZE_MESSAGES.ideaTooLong),
  rewriteWithAI: z.boolean().default(true),
  cloneId: z.string().min(1).max(64).optional(),
  targetDomain: CloneRequestBody.shape.targetDomain,
  /** Structured edits (`ops`) applied after the rewrite; other keys are kept on the site. */
  customizations: z.record(z.string(), z.unknown()).optional(),
  isDemo: z.boolean().optional(),
});
export type CloneWithAiBody = z.input<typeof CloneWithAiBody>;

export const CloneWithAiResponse = z.object({ id: z.string(), previewUrl: z.string().nullable() });
export type CloneWithAiResponse = z.infer<typeof CloneWithAiResponse>;

/** GET /domains/ai-rewrite-pricing: the one-off price for users without a paid plan, in cents. */
export const AiRewritePricingResponse = z.object({
  amount: z.number().int().min(0),
  currency: z.literal('usd'),
});
export type AiRewritePricingResponse = z.infer<typeof AiRewritePricingResponse>;
