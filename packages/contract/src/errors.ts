/** SPEC §8: fallback messages when the server gives none, by HTTP status. */
export const HTTP_FALLBACK_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad request. Please check your input.',
  401: 'Authentication required. Please log in.',
  403: 'Access denied. You do not have permission.',
  404: 'Resource not found.',
  500: 'Server error. Please try again later.',
};

export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection.';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred.';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please wait a moment and try again.';

export function fallbackMessageForStatus(status: number): string {
  return HTTP_FALLBACK_MESSAGES[status] ?? `Request failed with status ${status}`;
}

/** The server answers `{ message }`; a list of messages is joined with '; ' (SPEC §8). */
export function joinServerMessage(message: unknown): string | null {
  if (Array.isArray(message)) {
    const parts = message.filter((m): m is string => typeof m === 'string' && m.length > 0);
    return parts.length > 0 ? parts.join('; ') : null;
  }
  return typeof message === 'string' && message.length > 0 ? message : null;
}
