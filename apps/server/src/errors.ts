import { HTTP_FALLBACK_MESSAGES, TOO_MANY_REQUESTS_MESSAGE } from '@mirror/contract';

/**
 * The one error type the API raises on purpose. `message` is what the user sees (SPEC §8 texts);
 * `code` is a stable id for logs and tests. A list of messages is answered as an array.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
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
