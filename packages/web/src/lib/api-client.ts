import type { ApiErrorBody } from '@campus-books/common/api';
import type { ApiRouteKey, ApiRoutes } from '@campus-books/common/api-routes';
import type { z } from 'zod';
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

/** What an answer's schema outputs; of a route whose 2xx answers differ, any of theirs. */
type AnswerOf<Response> = Response extends z.ZodType
  ? z.output<Response>
  : z.output<Response[keyof Response]>;
/** The answer of a route of the API: what its response schema outputs. */
export type ApiAnswer<Route extends ApiRouteKey> = AnswerOf<ApiRoutes[Route]['response']>;

type QueryValue = string | number | boolean | null | undefined;
type ParamsOption<Contract> = Contract extends { params: z.ZodType }
  ? { params: z.input<Contract['params']> }
  : { params?: never };
type QueryOption<Contract> = Contract extends { query: z.ZodType }
  ? { query?: { [Name in keyof z.input<Contract['query']>]?: QueryValue } }
  : { query?: never };
/** A body schema, or the function of the campus's rules that builds it. */
type BodyInput<Body> = Body extends z.ZodType
  ? z.input<Body>
  : Body extends (...rules: never[]) => infer Schema
    ? Schema extends z.ZodType
      ? z.input<Schema>
      : never
    : never;
type BodyOption<Contract> = Contract extends { body: infer Body }
  ? undefined extends BodyInput<Body>
    ? { body?: BodyInput<Body> }
    : { body: BodyInput<Body> }
  : { body?: never };

/** What a call of a route sends: its path parameters, query and body, typed by its schemas. */
export type ApiCallOptions<Route extends ApiRouteKey> = ParamsOption<ApiRoutes[Route]> &
  QueryOption<ApiRoutes[Route]> &
  BodyOption<ApiRoutes[Route]> & { signal?: AbortSignal; headers?: Record<string, string> };
type OptionsArgument<Route extends ApiRouteKey> =
  Record<never, never> extends ApiCallOptions<Route>
    ? [options?: ApiCallOptions<Route>]
    : [options: ApiCallOptions<Route>];

/** The address of a call: the route's path with its parameters filled in, and the query. */
export function apiPath(
  template: string,
  params: Record<string, string> = {},
  query: Record<string, QueryValue> = {},
): string {
  const path = template.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * Calls a route of common's route table (`'POST /api/alerts/create'`): the body, parameters and
 * answer are typed by the route's schemas, so an answer the server changes fails this app's build.
 * The table is imported as a type only: no schema reaches the browser's bundle.
 */
export async function apiCall<Route extends ApiRouteKey>(
  route: Route,
  ...[options]: OptionsArgument<Route>
): Promise<ApiAnswer<Route>> {
  return (await callRoute(route, options)).data as ApiAnswer<Route>;
}

/** apiCall, with the answer's headers (e.g. a search's X-Total-Count). */
export async function apiCallResponse<Route extends ApiRouteKey>(
  route: Route,
  ...[options]: OptionsArgument<Route>
): Promise<{ data: ApiAnswer<Route>; headers: Headers }> {
  // The server sends every answer of the route through this very schema (its serializer), so the
  // JSON is the schema's output.
  return (await callRoute(route, options)) as { data: ApiAnswer<Route>; headers: Headers };
}

function callRoute(
  route: ApiRouteKey,
  options: {
    params?: Record<string, string>;
    query?: Record<string, QueryValue>;
    body?: unknown;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  } = {},
): Promise<{ data: unknown; headers: Headers }> {
  const { params, query, body, signal, headers } = options;
  const space = route.indexOf(' ');
  const method = route.slice(0, space) as 'GET' | 'POST' | 'PUT' | 'DELETE';
  return sendRequest(apiPath(route.slice(space + 1), params, query), {
    method,
    body,
    signal,
    headers,
  });
}

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
 * Sends one request (JSON in, JSON out, same-origin cookies): the answer's JSON (undefined for an
 * empty body, a 204) and headers. Any failure becomes an ApiError with the server's message.
 */
async function sendRequest(
  path: string,
  init: RequestInit = {},
): Promise<{ data: unknown; headers: Headers }> {
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
  if (response.status === 401) for (const listener of unauthorizedListeners) listener();

  let data: unknown;
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
  return { data, headers: response.headers };
}
