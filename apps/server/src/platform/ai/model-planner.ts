import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, NoObjectGeneratedError, Output } from 'ai';
import {
  EDIT_PLAN_LIMITS,
  EDIT_PLAN_MESSAGES,
  EditPlan,
  PageEditOp,
  type EditOp,
} from '@mirror/contract';
import { z } from 'zod';
import { NEWSLETTER_FORM } from '@mirror/customize';

/** What a model is asked for: the plan, plus the parts of the instructions it could not turn into one. */
const ModelAnswer = EditPlan.extend({
  // A page is restored from a change report, never planned (a model knows no versions).
  ops: z.array(PageEditOp).max(EDIT_PLAN_LIMITS.maxOps, EDIT_PLAN_MESSAGES.tooManyOps),
  unparsed: z
    .array(z.string().max(500))
    .max(50)
    .describe('Parts of the instructions that no operation can express, quoted verbatim.'),
  brand: z
    .object({
      from: z
        .string()
        .max(100)
        .optional()
        .describe("The site's current brand or company name, as written in the outline."),
      to: z.string().min(1).max(100).describe('The one brand name the rewritten site uses.'),
    })
    .optional()
    .describe('Rewrites only: the brand name before and after.'),
});

export interface PlanRequest {
  instructions: string;
  /** A compact outline of the page(s): texts with selectors, palette, fonts, sections. */
  outline: unknown;
  /** Idea mode: rewrite every visible text for this idea. */
  rewriteFor?: string;
}

export interface PlannedEdits {
  plan: EditPlan;
  unparsed: string[];
}

export type ModelFailure = 'invalid-output' | 'timeout' | 'unavailable';

/**
 * A model call that failed. `message` is a plain sentence for the site's owner (it is shown as the
 * run's error); `detail` is what went wrong technically, for the logs only.
 */
export class ModelPlannerError extends Error {
  constructor(
    readonly kind: ModelFailure,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ModelPlannerError';
  }
}

/** What the owner reads when the AI service fails: never a status code, a setting or a stack. */
export const MODEL_MESSAGES = {
  timeout: 'The AI service took too long to answer, so nothing was changed. Please try again.',
  invalidOutput:
    'The AI service did not give a usable answer, so nothing was changed. Please try again.',
  busy: 'The AI service is busy, so nothing was changed. Please try again in a minute.',
  unavailable:
    'The AI service is not available right now, so nothing was changed. Please try again later.',
} as const;

const SYSTEM = [
  'You edit a mirrored website by producing an edit plan: a JSON object with "ops" (operations),',
  'an optional "summary" and "unparsed". Use only the operations the schema allows. Select elements',
  'with the selectors given in the outline; never invent selectors. Texts are plain text, never HTML.',
  'Put every part of the instructions that no operation can express, verbatim, in "unparsed".',
  'Answer with the JSON object only.',
].join(' ');

/**
 * What an edit (not a rewrite) may change: only what was asked. A newsletter sign-up is the one
 * form the plan may add, as the built-in engine adds it: it posts to the copy, whose host keeps its
 * submissions (docs/forms.md).
 */
const EDIT_RULES = [
  'Keep the layout: change only what the instructions ask for, and never write texts the instructions do not give or clearly imply.',
  'To add a newsletter or email sign-up, use insertHtml with position "append" on the footer (on "body" when the outline has no footer) and exactly this html, its texts translated to the page\'s language if it is not English:',
  NEWSLETTER_FORM,
  'To send a form\'s submissions to an address ("send the contact form to sales@example.com", "forward form submissions to …", "contact form emails should go to …"), use setFormRecipient with that email, exactly as the instructions write it, and "form": omit it for the contact form, "newsletter" for the sign-up form, "all" for every form, or the id of the one form named. It changes no page. Use it only when the instructions give the address.',
].join(' ');

/**
 * A rewrite for an idea: the whole copy of every page given, as a draft the owner reviews, guided
 * by the idea and the owner's instructions, under one brand name.
 */
function rewriteRules(idea: string): string {
  return [
    `Rewrite the whole website for this idea: ${idea}`,
    'This is a draft the owner reviews before it goes live. Write new copy for EVERY page in the outline',
    '(each page outline has a "path"; limit page-specific operations with "pages": [path]), covering',
    'every kind of visible text: the page title (setTitle) and meta description (setDescription) of',
    'each page, every heading and the body copy (setText, or rewriteCopy for a section with several',
    'texts), the navigation labels and link texts (setText of the links), the button labels (setText),',
    'and the alternative text of every image (setAttribute with name "alt").',
    "Keep the structure, the links' addresses, the images and the styles: change texts only.",
    'Choose ONE brand name for the new site and use exactly that name everywhere you write it; give it',
    'in "brand" as { "from": the current brand name as written on the site, "to": the new name }, so',
    'the old name is replaced on every page, also where the outline does not reach.',
  ].join(' ');
}

function promptFor(request: PlanRequest, previousError?: string): string {
  const rewrite = request.rewriteFor !== undefined;
  const parts = [
    rewrite ? rewriteRules(request.rewriteFor!) : EDIT_RULES,
    request.instructions
      ? rewrite
        ? `The owner's instructions for this rewrite (follow them; they win over the idea where the two disagree):\n${request.instructions}`
        : `Instructions:\n${request.instructions}`
      : '',
    `${rewrite ? 'Outline of the pages' : 'Page outline'} (JSON):\n${JSON.stringify(request.outline)}`,
    previousError
      ? `Your previous answer was not a valid plan (${previousError}). Answer again with a valid plan.`
      : '',
  ];
  return parts.filter(Boolean).join('\n\n');
}

/**
 * The brand chosen for a rewrite, applied everywhere: the old name is replaced as a whole word in
 * the copy and the readable attributes (alt, meta descriptions) of every page, after the model's
 * own edits, so the name is the same in places the outline did not show.
 */
function withBrand(plan: EditPlan, brand: { from?: string | undefined; to: string } | undefined) {
  const from = brand?.from?.trim();
  const to = brand?.to.trim();
  if (!from || !to || from === to || from.length < 2) return plan;
  const op: EditOp = {
    op: 'replaceText',
    find: from,
    replace: to,
    wholeWord: true,
    includeAttributes: true,
  };
  const ops =
    plan.ops.length < EDIT_PLAN_LIMITS.maxOps ? [...plan.ops, op] : [op, ...plan.ops.slice(0, -1)];
  return { ...plan, ops };
}

/**
 * Where a form's mails go comes from the owner's words only: a recipient whose address the
 * instructions do not write is left out of the plan. A page's text (the outline is a stranger's
 * words) could otherwise ask a model to send the owner's leads elsewhere.
 */
export function withOwnRecipients(plan: EditPlan, instructions: string): EditPlan {
  const said = instructions.toLowerCase();
  const ops = plan.ops.filter(
    (op) => op.op !== 'setFormRecipient' || said.includes(op.email.trim().toLowerCase()),
  );
  return ops.length === plan.ops.length ? plan : { ...plan, ops };
}

/**
 * Turns instructions into an edit plan with any OpenAI-compatible chat endpoint through the `ai`
 * SDK's structured output. The model sees the instructions and a compact outline, never the raw
 * page. An answer that is not a valid plan is retried once with the validation error, then
 * reported; API errors are retried by the SDK once; the whole call is time-limited.
 */
export function createModelPlanner(options: {
  baseURL: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}) {
  const provider = createOpenAICompatible({
    name: 'mirror-ai',
    baseURL: options.baseURL,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    supportsStructuredOutputs: true,
  });
  const model = provider.chatModel(options.model);

  return {
    model: options.model,
    async plan(request: PlanRequest): Promise<PlannedEdits> {
      let previousError: string | undefined;
      for (let attempt = 0; attempt < 2; attempt++) {
        const signal = AbortSignal.timeout(options.timeoutMs);
        try {
          const { output } = await generateText({
            model,
            system: SYSTEM,
            prompt: promptFor(request, previousError),
            output: Output.object({ schema: ModelAnswer, name: 'edit_plan' }),
            maxRetries: 1,
            abortSignal: signal,
          });
          const { unparsed, brand, ...answered } = output;
          const plan = withOwnRecipients(answered, request.instructions);
          return { plan: request.rewriteFor ? withBrand(plan, brand) : plan, unparsed };
        } catch (err) {
          if (signal.aborted)
            throw new ModelPlannerError(
              'timeout',
              MODEL_MESSAGES.timeout,
              `no answer within ${Math.round(options.timeoutMs / 1000)} seconds`,
            );
          if (NoObjectGeneratedError.isInstance(err)) {
            previousError = (err.cause instanceof Error ? err.cause.message : err.message).slice(
              0,
              500,
            );
            continue;
          }
          const failure = describeApiError(err);
          throw new ModelPlannerError('unavailable', failure.message, failure.detail);
        }
      }
      throw new ModelPlannerError(
        'invalid-output',
        MODEL_MESSAGES.invalidOutput,
        `two answers that are not a valid edit plan; last: ${previousError ?? 'unknown'}`,
      );
    },
  };
}

export type ModelPlanner = ReturnType<typeof createModelPlanner>;

function describeApiError(err: unknown): { message: string; detail: string } {
  const cause = APICallError.isInstance(err)
    ? err
    : err instanceof Error && APICallError.isInstance(err.cause)
      ? err.cause
      : err instanceof Error && 'lastError' in err && APICallError.isInstance(err.lastError)
        ? err.lastError
        : null;
  const raw = (cause ?? (err instanceof Error ? err : null))?.message ?? String(err);
  if (cause?.statusCode === 429) {
    return { message: MODEL_MESSAGES.busy, detail: `HTTP 429: ${raw}` };
  }
  if (cause?.statusCode === 401 || cause?.statusCode === 403) {
    return { message: MODEL_MESSAGES.unavailable, detail: `the API key was refused: ${raw}` };
  }
  if (cause?.statusCode) {
    return { message: MODEL_MESSAGES.unavailable, detail: `HTTP ${cause.statusCode}: ${raw}` };
  }
  return { message: MODEL_MESSAGES.unavailable, detail: `unreachable: ${raw}` };
}
