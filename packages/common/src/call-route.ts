import type { z } from 'zod';
import type { ApiErrorBody } from './api';
import type { ApiRouteKey, ApiRoutes } from './api-routes';

// The route table is imported as a type only: calling a route puts no schema in a client's bundle.

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What an answer's schema outputs; of a route whose 2xx answers differ, any of theirs. */
type AnswerOf<Response> = Response extends z.ZodType
  ? z.output<Response>
  : z.output<Response[keyof Response]>;
/** The answer of a route of the API: what its response schema outputs. */
export type ApiAnswer<Route extends ApiRouteKey> = AnswerOf<ApiRoutes[Route]['response']>;

export type QueryValue = string | number | boolean | null | undefined;
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
  BodyOption<ApiRoutes[Route]> & {
    /** Signed in as (a `Cookie` header); null or absent: signed out, or the target's own cookies. */
    as?: { readonly cookie: string } | null;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };
/** The options argument: optional when the route needs none (no path parameter, no body). */
export type ApiCallArguments<Route extends ApiRouteKey> =
  Record<never, never> extends ApiCallOptions<Route>
    ? [options?: ApiCallOptions<Route>]
    : [options: ApiCallOptions<Route>];

/** One request as an injector takes it: Fastify's `app.inject` takes this very shape. */
export interface RouteRequest {
  method: ApiMethod;
  /** The path and query (`/api/listing/get/a%2Fb?x=1`): no origin. */
  url: string;
  headers: Record<string, string>;
  /** The JSON text of the body, when there is one. */
  payload?: string;
  signal?: AbortSignal;
}
/** The answer an injector gives: Fastify's `app.inject` answers this very shape. */
export interface RouteResponse {
  statusCode: number;
  headers: Headers | Readonly<Record<string, string | number | readonly string[] | undefined>>;
  body: string;
}
/** Sends a request somewhere other than over `fetch` (a test's app, a browser's request context). */
export type RouteInjector = (request: RouteRequest) => Promise<RouteResponse>;
/** Where a call goes: a server's base URL (`http://127.0.0.1:3000`, sent with fetch), or an injector. */
export type RouteTarget = string | RouteInjector;

/** A 2xx answer of a route, its JSON typed by the route's response schema (undefined: no body). */
export interface RouteSuccess<Route extends ApiRouteKey> {
  ok: true;
  status: number;
  headers: Headers;
  data: ApiAnswer<Route>;
}
/** A failed call: the answer in the API's error shape, or null when it is not (a proxy's page). */
export interface RouteFailure {
  ok: false;
  status: number;
  headers: Headers;
  error: ApiErrorBody | null;
  /** The answer's text, for what is not in the error shape. */
  text: string;
}
export type RouteAnswer<Route extends ApiRouteKey> = RouteSuccess<Route> | RouteFailure;

/** The address of a call: the route's path with its parameters filled in and encoded, and the query. */
export function routeUrl(
  template: string,
  params: Readonly<Record<string, string>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
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

/** Whether a JSON answer is in the API's error shape (api.ts `apiErrorSchema`). */
export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { success?: unknown }).success === false &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** The injector that sends requests to the server at `baseUrl` with fetch. */
export function fetchInjector(baseUrl: string): RouteInjector {
  const origin = baseUrl.replace(/\/+$/, '');
  return async ({ method, url, headers, payload, signal }) => {
    const response = await fetch(`${origin}${url}`, { method, headers, body: payload, signal });
    return { statusCode: response.status, headers: response.headers, body: await response.text() };
  };
}

function headersOf(headers: RouteResponse['headers']): Headers {
  if (headers instanceof Headers) return headers;
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) result.append(name, String(each));
  }
  return result;
}

/**
 * Calls a route of common's route table (`'POST /api/alerts/create'`) on a server: the parameters,
 * query and body are typed by the route's schemas, and so is the answer. A failure is an answer too
 * (`ok: false`, in the error shape); only a request that never got an answer throws.
 */
export async function callRoute<Route extends ApiRouteKey>(
  target: RouteTarget,
  route: Route,
  ...options: ApiCallArguments<Route>
): Promise<RouteAnswer<Route>> {
  // One untyped view of every route's options (the union of them all is too large to compute).
  const [{ params, query, body, as, headers, signal } = {}] = options as unknown as [
    {
      params?: Record<string, string>;
      query?: Record<string, QueryValue>;
      body?: unknown;
      as?: { readonly cookie: string } | null;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    }?,
  ];
  const space = route.indexOf(' ');
  const inject = typeof target === 'string' ? fetchInjector(target) : target;
  const response = await inject({
    method: route.slice(0, space) as ApiMethod,
    url: routeUrl(route.slice(space + 1), params, query),
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(as ? { cookie: as.cookie } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  let json: unknown;
  if (response.body !== '') {
    try {
      json = JSON.parse(response.body);
    } catch {
      json = null;
    }
  }
  const status = response.statusCode;
  const answerHeaders = headersOf(response.headers);
  if (status >= 200 && status < 300 && !isApiErrorBody(json)) {
    // The server sends every answer of the route through this very schema (its serializer), so
    // the JSON is the schema's output.
    return { ok: true, status, headers: answerHeaders, data: json as ApiAnswer<Route> };
  }
  return {
    ok: false,
    status,
    headers: answerHeaders,
    error: isApiErrorBody(json) ? json : null,
    text: response.body,
  };
}

/** A call that did not succeed, named by its route, status and the server's message. */
export class RouteCallError extends Error {
  constructor(
    readonly route: string,
    readonly answer: RouteFailure,
  ) {
    super(
      `${route} answered ${answer.status}: ${answer.error?.message ?? answer.text.slice(0, 300)}`,
    );
    this.name = 'RouteCallError';
  }
}

/** The data of a call that must succeed; a failure throws a RouteCallError with its message. */
export async function callRouteData<Route extends ApiRouteKey>(
  target: RouteTarget,
  route: Route,
  ...options: ApiCallArguments<Route>
): Promise<ApiAnswer<Route>> {
  const answer = await callRoute(target, route, ...options);
  if (!answer.ok) throw new RouteCallError(route, answer);
  return answer.data;
}

/** The data of an answer that must be a success; a failure throws with its status and message. */
export function dataOf<Data>(answer: { ok: true; data: Data } | RouteFailure): Data {
  if (answer.ok) return answer.data;
  throw new Error(
    `The call answered ${answer.status}: ${answer.error?.message ?? answer.text.slice(0, 300)}`,
  );
}

/** The error of an answer that must be a failure in the API's error shape; anything else throws. */
export function errorOf(answer: { ok: true; status: number } | RouteFailure): ApiErrorBody {
  if (!answer.ok && answer.error) return answer.error;
  throw new Error(`The call answered ${answer.status}, not an error in the API's shape`);
}
