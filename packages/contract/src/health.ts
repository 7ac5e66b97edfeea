import { z } from 'zod';

export const HealthResponse = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Every error answer: one message, or a list the client joins with '; '. */
export const ErrorResponse = z.object({ message: z.union([z.string(), z.array(z.string())]) });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
