import type { ApiErrorBody } from '@campus-books/common/api';

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

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { success?: unknown }).success === false &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

interface RequestInit {
  method?: 'GET' | 'POST' | 'DELETE';
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
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (hasBody ? 'POST' : 'GET'),
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
    throw new ApiError(GENERIC_MESSAGE, 0);
  }

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
