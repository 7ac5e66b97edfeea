import { HTTP_FALLBACK_MESSAGES, TOO_MANY_REQUESTS_MESSAGE } from '@mirror/contract';

/**
 * Stable ids of the errors the service raises on purpose, for logs, metrics and tests: a new kind of
 * error gets a new id here, and an id never changes meaning.
 */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_many_requests',
  'service_unavailable',
  'payment_required',
  'payment_declined',
  'storage_full',
  'no_live_version',
  'version_not_ready',
  'screenshot_failed',
  'bad_archive',
  'archive_too_large',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one error type the service raises on purpose, in its modules and its HTTP layer alike (it
 * lives at the root so the domain never imports the HTTP layer). `message` is what the user sees
 * (the product's message texts); `code` is a stable id (`ERROR_CODES`). A list of messages is
 * answered as an array.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string | string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = 'AppError';
    this.messages = Array.isArray(message) ? message : [message];
  }

  readonly messages: string[];

  toBody(): { message: string | string[] } {
    return { message: this.messages.length === 1 ? this.messages[0]! : this.messages };
  }
}

export const badRequest = (message: string | string[] = HTTP_FALLBACK_MESSAGES[400]!) =>
  new AppError('bad_request', 400, message);
export const unauthorized = (message = HTTP_FALLBACK_MESSAGES[401]!) =>
  new AppError('unauthorized', 401, message);
export const forbidden = (message = HTTP_FALLBACK_MESSAGES[403]!) =>
  new AppError('forbidden', 403, message);
export const notFound = (message = HTTP_FALLBACK_MESSAGES[404]!) =>
  new AppError('not_found', 404, message);
export const conflict = (message: string) => new AppError('conflict', 409, message);
export const tooManyRequests = (retryAfterSeconds: number, message = TOO_MANY_REQUESTS_MESSAGE) =>
  new AppError('too_many_requests', 429, message, { 'retry-after': String(retryAfterSeconds) });
export const serviceUnavailable = (message: string) =>
  new AppError('service_unavailable', 503, message);
