import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestUser } from './helpers';

/** How a suite asks the app: as `user` (signed out: null), with a JSON body when there is one. */
export type ApiCall = (
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => Promise<LightMyRequestResponse>;

/** The `call` of a suite whose app its beforeAll creates: `apiCaller(() => t)`. */
export function apiCaller(testApp: () => TestApp): ApiCall {
  return (user, method, url, payload) =>
    testApp().app.inject({
      method,
      url,
      headers: user ? { cookie: user.cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}
