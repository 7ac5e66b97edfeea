import { z } from 'zod';

export const HealthResponse = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof HealthResponse>;

/** `/api/ready`: each dependency's check (`ok` or what went wrong), 503 unless all are ok. */
export const ReadyResponse = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.record(z.string(), z.string()),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;

/** Every error answer: one message, or a list the client joins with '; '. */
export const ErrorResponse = z.object({ message: z.union([z.string(), z.array(z.string())]) });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
