import { HTTP_FALLBACK_MESSAGES } from '@mirror/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type. Send JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body must not be empty.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON.',
};

/** One handler for every error: `{ message }` with SPEC §8 texts; 5xx internals never leave the server. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return reply.status(error.status).headers(error.headers).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const messages = [...new Set(error.validation.map((issue) => issue.message))];
      return reply.status(400).send({ message: messages.length === 1 ? messages[0] : messages });
    }
    const status =
      'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status < 500) {
      const code = 'code' in error ? String(error.code) : '';
      const message =
        CLIENT_ERROR_MESSAGES[code] ??
        (code.startsWith('FST_') || error.name === 'SyntaxError'
          ? (HTTP_FALLBACK_MESSAGES[status] ?? error.message)
          : error.message);
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: HTTP_FALLBACK_MESSAGES[500] });
  });
}
