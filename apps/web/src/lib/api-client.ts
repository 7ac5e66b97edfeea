import {
  API_BASE_PATH,
  API_TIMEOUT_MS,
  NETWORK_ERROR_MESSAGE,
  STORAGE_KEYS,
  fallbackMessageForStatus,
  joinServerMessage,
} from '@mirror/contract';

/** Every failed call becomes one of these; `status` is 0 when no answer arrived. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Message kept when the failure has none of its own, e.g. 'Login failed'. */
  defaultMessage?: string;
  signal?: AbortSignal;
  /** `blob` for file downloads (a zip, an invoice); JSON otherwise. */
  responseType?: 'json' | 'blob';
  /** Extra request headers, e.g. an `Idempotency-Key` on calls that charge a card. */
  headers?: Record<string, string>;
}

export interface ApiClientConfig {
  baseUrl: string;
  timeoutMs: number;
}

const config: ApiClientConfig = { baseUrl: API_BASE_PATH, timeoutMs: API_TIMEOUT_MS };

/** Tests point the client at a local server; the app keeps `/api`. */
export function configureApiClient(next: Partial<ApiClientConfig>): void {
  Object.assign(config, next);
}

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(STORAGE_KEYS.token, token);
    else window.localStorage.removeItem(STORAGE_KEYS.token);
  } catch {
    // Without storage the session lasts for this page only.
  }
}

type UnauthorizedHandler = () => void;

function redirectToLogin(): void {
  window.location.assign('/?login=true');
}

let unauthorizedHandler: UnauthorizedHandler = redirectToLogin;

/** The app swaps the full-page redirect for a router navigation; returns the restore function. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = redirectToLogin;
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function messageFromBody(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    return joinServerMessage((body as { message: unknown }).message);
  }
  return null;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, defaultMessage, signal, responseType = 'json' } = options;
  const token = getToken();
  const headers: Record<string, string> = {
    ...options.headers,
    Accept: responseType === 'blob' ? '*/*' : 'application/json',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  const abortFromCaller = () => controller.abort();
  signal?.addEventListener('abort', abortFromCaller);

  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch {
    // No answer at all: offline, refused, or aborted by the timeout.
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abortFromCaller);
  }

  let payload: unknown;
  try {
    payload =
      response.ok && responseType === 'blob' ? await response.blob() : await readBody(response);
  } catch {
    // The answer was cut off while its body was read (offline, or the page is being left): no
    // complete answer, which the session treats as no answer at all (status 0).
    throw new ApiError(0, defaultMessage ?? NETWORK_ERROR_MESSAGE);
  }

  if (!response.ok) {
    const message = messageFromBody(payload) ?? fallbackMessageForStatus(response.status);
    // Only a rejected session means "log in again"; a wrong password on the login form does not.
    if (response.status === 401 && token) {
      setToken(null);
      unauthorizedHandler();
    }
    throw new ApiError(response.status, message);
  }
  return payload as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  /** A body only where the server asks for one (the password that deletes an account). */
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
  /** A file answer, fetched with the session like every other call. */
  getBlob: (path: string, options?: Omit<RequestOptions, 'method' | 'body' | 'responseType'>) =>
    apiRequest<Blob>(path, { ...options, method: 'GET', responseType: 'blob' }),
};

/**
 * Sends a multipart form (a file upload), reporting how much of it went (0..1) as it goes: `fetch`
 * cannot say, so this one call uses XMLHttpRequest, with the same session, answers and errors as
 * every other. No time limit: a large file takes as long as the connection needs.
 */
export function uploadForm<T>(
  path: string,
  form: FormData,
  options: {
    defaultMessage?: string;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    const token = getToken();
    request.open('POST', `${config.baseUrl}${path}`);
    request.setRequestHeader('Accept', 'application/json');
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        options.onProgress?.(event.loaded / event.total);
    };
    const noAnswer = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
    request.onerror = noAnswer;
    request.onabort = noAnswer;
    request.onload = () => {
      let payload: unknown = null;
      try {
        payload = request.responseText ? (JSON.parse(request.responseText) as unknown) : null;
      } catch {
        payload = null;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(payload as T);
        return;
      }
      const message = messageFromBody(payload) ?? fallbackMessageForStatus(request.status);
      if (request.status === 401 && token) {
        setToken(null);
        unauthorizedHandler();
      }
      reject(new ApiError(request.status, message || options.defaultMessage || ''));
    };
    options.signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });
}

/** Turns anything thrown into a message for the screen. */
export function getErrorMessage(error: unknown, defaultMessage: string): string {
  if (error instanceof ApiError) return error.message || defaultMessage;
  if (error instanceof Error && error.message) return error.message;
  return defaultMessage;
}
