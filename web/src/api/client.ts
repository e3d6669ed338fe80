import {
  type ErrorCode,
  httpStatusText,
  isErrorCode,
  rateLimitText,
  STORAGE_KEYS,
  TEXTS,
} from '@guildhall/common';
import { shownServerMessage } from './server-fault.ts';

/**
 * An API failure with the user-facing message of portal-core §8, the HTTP status (0 = network) and the
 * catalogue's code (common/src/error-codes.ts): the app decides by the code, never by the message.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: ErrorCode;
  constructor(message: string, status: number, code?: ErrorCode) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** Fired when the server says the stored session is no longer valid, so the auth state can clear it. */
export const SESSION_INVALID_EVENT = 'guildhall:session-invalid';
/** Window event: the account's level changed (the realtime channel said so); the auth state reads it again. */
export const ACCESS_CHANGED_EVENT = 'guildhall:access-changed';

export function getStoredToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.authToken);
}

type RequestOptions = Omit<RequestInit, 'body'> & { body?: unknown; token?: string | null };

/**
 * Maps a non-OK response to the spec's message: the body's error, else HTTP {status}; 429 names the wait.
 * A server fault's own text is replaced by a friendly line (see server-fault.ts).
 */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  if (res.status === 429) {
    const seconds = Number.parseInt(res.headers.get('retry-after') ?? '', 10);
    return new ApiError(
      Number.isFinite(seconds) ? rateLimitText(seconds) : TEXTS.rateLimitGeneric,
      429,
      'RATE_LIMITED',
    );
  }
  const text = await res.text().catch(() => '');
  if (!text) return new ApiError(httpStatusText(res.status), res.status);
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; code?: unknown };
    const message =
      typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : null;
    const code = isErrorCode(body.code) ? body.code : undefined;
    return new ApiError(
      message ? shownServerMessage(res.status, message, code) : httpStatusText(res.status),
      res.status,
      code,
    );
  } catch {
    return new ApiError(TEXTS.unexpectedError, res.status);
  }
}

/** fetch + bearer token + JSON + the spec's error mapping. Resolves to the parsed JSON body. */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { body, token = getStoredToken(), headers, ...rest } = options;
  const h = new Headers(headers);
  h.set('accept', 'application/json');
  if (body !== undefined && !(body instanceof FormData)) h.set('content-type', 'application/json');
  if (token) h.set('authorization', `Bearer ${token}`);
  let res: Response;
  try {
    res = await fetch(path, {
      ...rest,
      headers: h,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(TEXTS.networkError, 0);
  }
  if (!res.ok) {
    const err = await errorFromResponse(res);
    if (res.status === 401 && token) window.dispatchEvent(new Event(SESSION_INVALID_EVENT));
    throw err;
  }
  if (res.status === 204) return undefined as T;
  try {
    return (await res.json()) as T;
  } catch {
    throw new ApiError(TEXTS.unexpectedError, res.status);
  }
}
