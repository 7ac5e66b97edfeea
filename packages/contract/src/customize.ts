import { z } from 'zod';
import { EDIT_PLAN_LIMITS, PageEditOp, RestorePageOp } from './edit-plan.js';
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
  /** POST …/versions/{versionId}/undo on a version that is not a draft, or an index it has not. */
  undoNotDraft: 'Only an edit of a draft can be undone.',
  undoNoSuchEdit: 'This draft has no such edit.',
  /**
   * POST …/versions/{versionId}/changes/restore (issue 33) when the version the report compared
   * with was deleted since, or the page is not in it.
   */
  restoreBaseGone:
    'The previous version is no longer kept, so this page cannot be restored from it.',
  restoreNotInBase: 'This page is not in the previous version, so it cannot be restored from it.',
  rateLimited: 'Too many customizations. Please wait a few minutes and try again.',
  /**
   * An upload reference (`replaceImage` with `upload`) that names no image of the caller's own
   * account: another account's file and a made-up hash get this same answer (issue 30, item 4).
   */
  uploadNotFound:
    'An uploaded image in these changes was not found in your account. Nothing was changed.',
  /** The same, for an edit planned while the run was under way: that one change is left out. */
  uploadLeftOut:
    'An uploaded image was not found in your account, so that image was left as it was.',
  /**
   * 409 of `POST /payments/ai-rewrite` and `POST /domains/clone-with-ai` when the server has no AI
   * model: nothing is charged or written. Customizing with instructions still works.
   */
  rewriteUnavailable:
    'AI rewrites are not available on this server yet: no payment was taken. You can still customize your copy with instructions.',
  /** A rewrite that was queued but finds no model when it runs (the model was removed meanwhile). */
  rewriteNeedsModel:
    'AI rewrites are not available on this server right now, so nothing was changed. Please try again later.',
  failed: 'Customization failed',
  failedUnexpectedly:
    'The changes could not be made because of a problem on our side. Nothing changed on your site; please try again later.',
  /** Instructions the built-in engine could not read in part: nothing is applied, no version made. */
  notUnderstood: (parts: { part: string; suggestion: string | null }[]) =>
    `Nothing was changed: I could not understand ${parts
      .map((p) => `"${p.part}"${p.suggestion ? ` (try: "${p.suggestion}")` : ''}`)
      .join(', ')}. Please rephrase it and try again.`,
} as const;

const Instructions = z
  .string()
  .trim()
  .max(EDIT_PLAN_LIMITS.maxTextLength, CUSTOMIZE_MESSAGES.instructionsTooLong);

/** What a customization asks for: instructions in plain language and/or structured edits. */
export const Customizations = z.object({
  instructions: Instructions.optional(),
  ops: z.array(PageEditOp).max(EDIT_PLAN_LIMITS.maxOps).optional(),
  /**
   * Make the draft from the parts of the instructions that were understood; the others are kept
   * on the draft as not understood (`SiteVersion.unparsed`). Without it, a part not understood
   * refuses the whole request and nothing is made.
   */
  partial: z.boolean().optional(),
});
export type Customizations = z.infer<typeof Customizations>;

/** POST /domains/clone/{id}/customize/understand: what instructions would do, before applying. */
export const UnderstandBody = z.object({
  instructions: Instructions.pipe(z.string().min(1, CUSTOMIZE_MESSAGES.nothingToApply)),
});
export const Understanding = z.object({
  /** An AI model reads these instructions when they run: it is not known in advance. */
  byModel: z.boolean(),
  /** "I will: …", one plain line per change (never a selector). */
  willDo: z.array(z.string()),
  /**
   * Parts not understood, verbatim, with the closest phrasing that is (null when nothing the
   * engine can do comes close) and other phrasings near it (a vague wish such as "make it pop":
   * the colours, fonts and sizes it can set).
   */
  notUnderstood: z.array(
    z.object({
      part: z.string(),
      suggestion: z.string().nullable(),
      alternatives: z.array(z.string()).optional(),
    }),
  ),
});
export type Understanding = z.infer<typeof Understanding>;

/** PUT /domains/clone/{id}/customize (SPEC §7). */
export const CustomizeBody = z.object({
  customizations: Customizations,
  regenerate: z.boolean().optional(),
});
export type CustomizeBody = z.input<typeof CustomizeBody>;

/**
 * POST /domains/clone/{id}/versions/{versionId}/undo: a new draft from the same base without the
 * edit at `index` (into the draft's applied plan, `SiteVersion.edits[].index`).
 */
export const UndoEditBody = z.object({
  index: z.number().int().min(0).max(EDIT_PLAN_LIMITS.maxOps),
});
export type UndoEditBody = z.infer<typeof UndoEditBody>;

/**
 * POST /domains/clone/{id}/versions/{versionId}/changes/restore: a draft of the site with `path`
 * as the version the report compared with had it (issue 33), made like a customization.
 */
export const RestorePageBody = z.object({ path: RestorePageOp.shape.path });
export type RestorePageBody = z.infer<typeof RestorePageBody>;

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

/**
 * GET /domains/ai-rewrite-pricing: the one-off price for users without a paid plan, in cents, and
 * whether this server can rewrite at all (`available`: an AI model is connected). When it cannot,
 * rewrites are neither sold nor started.
 */
export const AiRewritePricingResponse = z.object({
  amount: z.number().int().min(0),
  currency: z.literal('usd'),
  available: z.boolean(),
});
export type AiRewritePricingResponse = z.infer<typeof AiRewritePricingResponse>;
