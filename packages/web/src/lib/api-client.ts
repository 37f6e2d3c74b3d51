import type { ApiErrorBody } from '@campus-books/common/api';
import { FROM_CACHE_HEADER } from './offline-cache';
import { noteApiAnswer } from './offline-status';

/** A failed API call: the server's message, HTTP status (0 for a network failure) and field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors?: { field: string; message: string }[],
    /** The server asks for a solved proof-of-work challenge (sign-in, sign-up). */
    readonly challengeRequired = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const GENERIC_MESSAGE = 'Something went wrong';
/** A write refused before it left the device: the browser is offline. Nothing is queued. */
export const OFFLINE_WRITE_MESSAGE =
  "You're offline: nothing was sent. Try again when you're back online.";
/** A write whose connection failed while the browser thought it was online: it may have arrived. */
const LOST_WRITE_MESSAGE =
  'The connection failed, so your change may not have been saved. Check your connection and try again.';
const OFFLINE_READ_MESSAGE = "You're offline, and this page isn't saved on this device yet.";

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { success?: unknown }).success === false &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

interface RequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** JSON in, JSON out, same-origin cookies; any failure becomes an ApiError with the server's message. */
export async function apiRequest<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await apiResponse<T>(path, init)).data;
}

/** apiRequest, with the answer's headers (e.g. a search's X-Total-Count). */
export async function apiResponse<T>(
  path: string,
  init: RequestInit = {},
): Promise<{ data: T; headers: Headers }> {
  const hasBody = init.body !== undefined;
  const method = init.method ?? (hasBody ? 'POST' : 'GET');
  const isWrite = method !== 'GET';
  if (isWrite && !navigator.onLine) throw new ApiError(OFFLINE_WRITE_MESSAGE, 0);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
        Accept: 'application/json',
        ...init.headers,
      },
      body: hasBody ? JSON.stringify(init.body) : undefined,
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    const offline = !navigator.onLine;
    if (isWrite) throw new ApiError(offline ? OFFLINE_WRITE_MESSAGE : LOST_WRITE_MESSAGE, 0);
    throw new ApiError(offline ? OFFLINE_READ_MESSAGE : GENERIC_MESSAGE, 0);
  }
  // The configuration every page reads says nothing about whether the page's own data is live.
  if (!isWrite && path !== '/api/config') noteApiAnswer(response.headers.has(FROM_CACHE_HEADER));

  let data: unknown = null;
  const text = await response.text().catch(() => '');
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }

  if (!response.ok || isErrorBody(data)) {
    if (isErrorBody(data)) {
      throw new ApiError(
        data.message,
        response.status,
        data.errors,
        data.challengeRequired === true,
      );
    }
    throw new ApiError(GENERIC_MESSAGE, response.status);
  }
  return { data: data as T, headers: response.headers };
}
