import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, NoObjectGeneratedError, Output } from 'ai';
import { EditPlan } from '@mirror/contract';
import { z } from 'zod';

/** What a model is asked for: the plan, plus the parts of the instructions it could not turn into one. */
const ModelAnswer = EditPlan.extend({
  unparsed: z
    .array(z.string().max(500))
    .max(50)
    .describe('Parts of the instructions that no operation can express, quoted verbatim.'),
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

export class ModelPlannerError extends Error {
  constructor(
    readonly kind: ModelFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ModelPlannerError';
  }
}

const SYSTEM = [
  'You edit a mirrored website by producing an edit plan: a JSON object with "ops" (operations),',
  'an optional "summary" and "unparsed". Use only the operations the schema allows. Select elements',
  'with the selectors given in the outline; never invent selectors or texts that are not in it.',
  'Keep the layout: change only what the instructions ask for. Put every part of the instructions',
  'that no operation can express, verbatim, in "unparsed". Answer with the JSON object only.',
].join(' ');

function promptFor(request: PlanRequest, previousError?: string): string {
  const parts = [
    request.rewriteFor
      ? `Rewrite every visible text of this site for the following idea, keeping structure, links and images: ${request.rewriteFor}`
      : '',
    request.instructions ? `Instructions:\n${request.instructions}` : '',
    `Page outline (JSON):\n${JSON.stringify(request.outline)}`,
    previousError
      ? `Your previous answer was not a valid plan (${previousError}). Answer again with a valid plan.`
      : '',
  ];
  return parts.filter(Boolean).join('\n\n');
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
          const { unparsed, ...plan } = output;
          return { plan, unparsed };
        } catch (err) {
          if (signal.aborted)
            throw new ModelPlannerError(
              'timeout',
              `The AI service did not answer within ${Math.round(options.timeoutMs / 1000)} seconds.`,
            );
          if (NoObjectGeneratedError.isInstance(err)) {
            previousError = (err.cause instanceof Error ? err.cause.message : err.message).slice(
              0,
              500,
            );
            continue;
          }
          throw new ModelPlannerError('unavailable', describeApiError(err));
        }
      }
      throw new ModelPlannerError(
        'invalid-output',
        'The AI service answered twice with something that is not a valid edit plan.',
      );
    },
  };
}

export type ModelPlanner = ReturnType<typeof createModelPlanner>;

function describeApiError(err: unknown): string {
  const cause = APICallError.isInstance(err)
    ? err
    : err instanceof Error && APICallError.isInstance(err.cause)
      ? err.cause
      : err instanceof Error && 'lastError' in err && APICallError.isInstance(err.lastError)
        ? err.lastError
        : null;
  if (cause?.statusCode === 401 || cause?.statusCode === 403)
    return 'The AI service refused the API key.';
  if (cause?.statusCode === 429) return 'The AI service is busy. Please try again in a minute.';
  if (cause?.statusCode) return `The AI service failed (HTTP ${cause.statusCode}).`;
  return 'The AI service could not be reached.';
}
