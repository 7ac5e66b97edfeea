import { HTTP_FALLBACK_MESSAGES } from '@mirror/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type. Send JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body must not be empty.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON.',
  FST_ERR_BAD_URL: 'The address of the request is not valid.',
  FST_ERR_MAX_PARAM_LENGTH: 'The address of the request is too long.',
};

/**
 * Errors Fastify's router raises before any route or error handler runs (an address with broken
 * percent-encoding, a path parameter over 100 characters): answered `{ message }` like every other
 * error, instead of Fastify's own `{ error, code, message, statusCode }` that echoes the address.
 * Wired with Fastify's `frameworkErrors` option.
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 500;
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  const message =
    status >= 500
      ? HTTP_FALLBACK_MESSAGES[500]!
      : (CLIENT_ERROR_MESSAGES[error.code] ??
        HTTP_FALLBACK_MESSAGES[status] ??
        HTTP_FALLBACK_MESSAGES[400]!);
  void reply.status(status).send({ message });
}

/** What a request that failed because the database (or another backing service) is out of reach gets. */
export const SERVICE_UNAVAILABLE_MESSAGE =
  'Service temporarily unavailable. Please try again in a moment.';

/** Socket errors of a connection that could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL's connection failures (SQLSTATE class 08), a server shutting down or full, and SQLite
 * busy (another process kept the write lock past the busy timeout, or a transaction could not
 * upgrade to writing).
 */
const DB_UNAVAILABLE_CODES = /^(08...|57P0[123]|53300|SQLITE_BUSY(_\w+)?)$/;
/** What node-postgres says when it loses or cannot open a connection (these carry no code). */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

export const UNSTORABLE_TEXT_MESSAGE =
  'The request contains characters that cannot be stored (such as a NUL byte).';

/** The `code` an error carries (Fastify's, Node's, a database driver's SQLSTATE), or ''. */
function codeOf(error: Error): string {
  return 'code' in error ? String(error.code) : '';
}

/** PostgreSQL's character_not_in_repertoire and untranslatable_character. */
function isUnstorableText(error: Error): boolean {
  const code = codeOf(error);
  return code === '22021' || code === '22P05';
}

/** True when the database could not be reached or was busy: nothing is wrong with the request. */
export function isServiceUnreachable(error: Error): boolean {
  const code = codeOf(error);
  return (
    CONNECTION_ERROR_CODES.has(code) ||
    DB_UNAVAILABLE_CODES.test(code) ||
    PG_CONNECTION_MESSAGES.test(error.message)
  );
}

/** One handler for every error: `{ message }` with SPEC §8 texts; 5xx internals never leave the server. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      // A 5xx the code chose (503 while payments are off, a page that cannot be captured): the
      // thrower logged its cause at the level it deserves, so here it is a warning, not a second
      // error.
      if (error.status >= 500) request.log.warn({ err: error }, error.message);
      return reply.status(error.status).headers(error.headers).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const messages = [...new Set(error.validation.map((issue) => issue.message))];
      return reply.status(400).send({ message: messages.length === 1 ? messages[0] : messages });
    }
    const status =
      'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status < 500) {
      const code = codeOf(error);
      const message =
        CLIENT_ERROR_MESSAGES[code] ??
        (code.startsWith('FST_') || error.name === 'SyntaxError'
          ? (HTTP_FALLBACK_MESSAGES[status] ?? error.message)
          : error.message);
      return reply.status(status).send({ message });
    }
    if (isUnstorableText(error)) {
      // PostgreSQL cannot store NUL bytes (or text its encoding lacks); SQLite could. The request
      // is at fault, and it failed before anything was written.
      return reply.status(400).send({ message: UNSTORABLE_TEXT_MESSAGE });
    }
    if (isServiceUnreachable(error)) {
      // An outage of the database: the client may try again; nothing is wrong with its request.
      request.log.error({ err: error }, 'request failed: a backing service is unreachable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: SERVICE_UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: HTTP_FALLBACK_MESSAGES[500] });
  });
}
