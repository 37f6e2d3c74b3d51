import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import {
  callRoute,
  type ApiCallArguments,
  type RouteAnswer,
  type RouteInjector,
} from '@campus-books/common/call-route';
import type { TestApp, TestUser } from './helpers';

/** How a suite asks the app: as `user` (signed out: null), with a JSON body when there is one. */
export type ApiCall = (
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => Promise<LightMyRequestResponse>;

/**
 * The `call` of a suite whose app its beforeAll creates: `apiCaller(() => t)`. For a request the
 * route table cannot type (a malformed body, a route outside the table); `routeCaller` for the rest.
 */
export function apiCaller(testApp: () => TestApp): ApiCall {
  return (user, method, url, payload) =>
    testApp().app.inject({
      method,
      url,
      headers: user ? { cookie: user.cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** The app as common's callRoute's target: requests go through `app.inject`, without a port. */
export function appInjector(app: FastifyInstance): RouteInjector {
  return ({ method, url, headers, payload }) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
}

/** A route of the table called on the suite's app: `routeCaller(() => t)('GET /api/…', { as })`. */
export type RouteCall = <Route extends ApiRouteKey>(
  route: Route,
  ...options: ApiCallArguments<Route>
) => Promise<RouteAnswer<Route>>;

/** common's callRoute on the app a suite's beforeAll creates, typed by the route table. */
export function routeCaller(testApp: () => TestApp): RouteCall {
  return (route, ...options) => callRoute(appInjector(testApp().app), route, ...options);
}
