import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { campusValues } from './campus-values';
import type { TestApp } from './helpers';

let counter = 0;

/** A valid sign-up body with a fresh address; override any field. */
export function signUpBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    firstName: 'Ada',
    lastName: `Lovelace${counter}`,
    email: campusValues.email(`ada${counter}.${randomUUID().slice(0, 6)}`),
    password: 'Secret-123',
    groupmelink: `https://groupme.com/contact/${counter}`,
    ...overrides,
  };
}

export function post(t: TestApp, url: string, payload?: unknown, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: cookie ? { cookie } : {},
  });
}

export function get(t: TestApp, url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** The `name=value` pair of the session cookie a response set, for the next request. */
export function sessionCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'cb_session');
  if (!cookie?.value) throw new Error('the response set no session cookie');
  return `${cookie.name}=${cookie.value}`;
}

/** Rate limits out of the way, for test files that are not about them. */
export const GENEROUS_LIMITS = {
  RATE_LIMIT_SIGNIN_PER_IP: '10000',
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: '10000',
  RATE_LIMIT_SIGNUP_PER_IP: '10000',
  RATE_LIMIT_MAIL_PER_IP: '10000',
  RATE_LIMIT_MAIL_PER_ADDRESS: '10000',
  RATE_LIMIT_LISTINGS_PER_ACCOUNT: '10000',
};

/** The generous limits and the conversation and message limits out of the way too. */
export const CONVERSATION_LIMITS = {
  ...GENEROUS_LIMITS,
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
  RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
};
