import type { ApiRouteKey } from '@campus-books/common/api-routes';
import {
  callRoute,
  type ApiAnswer,
  type ApiCallArguments,
  type RouteInjector,
} from '@campus-books/common/call-route';
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

/**
 * Calls a route of common's route table (`'POST /api/alerts/create'`): the body, parameters and
 * answer are typed by the route's schemas, so an answer the server changes fails this app's build.
 * The table is imported as a type only: no schema reaches the browser's bundle.
 */
export async function apiCall<Route extends ApiRouteKey>(
  route: Route,
  ...options: ApiCallArguments<Route>
): Promise<ApiAnswer<Route>> {
  return (await apiCallResponse(route, ...options)).data;
}

/** apiCall, with the answer's headers (e.g. a search's X-Total-Count). */
export async function apiCallResponse<Route extends ApiRouteKey>(
  route: Route,
  ...options: ApiCallArguments<Route>
): Promise<{ data: ApiAnswer<Route>; headers: Headers }> {
  const answer = await callRoute(sameOrigin, route, ...options);
  if (answer.ok) return { data: answer.data, headers: answer.headers };
  const { error } = answer;
  if (!error) throw new ApiError(GENERIC_MESSAGE, answer.status);
  throw new ApiError(error.message, answer.status, error.errors, error.challengeRequired === true);
}

export type { ApiAnswer, ApiCallOptions } from '@campus-books/common/call-route';

const unauthorizedListeners = new Set<() => void>();

/**
 * Hears every 401 the API answers: the session this page holds may have ended elsewhere (signed out
 * in another tab or by a request of its own, or expired). Returns the unsubscribe.
 */
export function onUnauthorizedAnswer(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * Sends one request of this page's (same-origin cookies) and answers its text. A write is refused
 * while offline, and a request that gets no answer becomes an ApiError saying why.
 */
const sameOrigin: RouteInjector = async ({ method, url, headers, payload, signal }) => {
  const isWrite = method !== 'GET';
  if (isWrite && !navigator.onLine) throw new ApiError(OFFLINE_WRITE_MESSAGE, 0);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers,
      body: payload,
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    const offline = !navigator.onLine;
    if (isWrite) throw new ApiError(offline ? OFFLINE_WRITE_MESSAGE : LOST_WRITE_MESSAGE, 0);
    throw new ApiError(offline ? OFFLINE_READ_MESSAGE : GENERIC_MESSAGE, 0);
  }
  // The configuration every page reads says nothing about whether the page's own data is live.
  if (!isWrite && url !== '/api/config') noteApiAnswer(response.headers.has(FROM_CACHE_HEADER));
  if (response.status === 401) for (const listener of unauthorizedListeners) listener();
  const body = await response.text().catch(() => '');
  return { statusCode: response.status, headers: response.headers, body };
};
