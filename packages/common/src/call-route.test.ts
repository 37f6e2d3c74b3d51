import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { ApiMessage } from './api';
import type { Alert } from './alert.schemas';
import type { SentEvent } from './conversation.schemas';
import {
  callRoute,
  callRouteData,
  dataOf,
  errorOf,
  RouteCallError,
  type RouteAnswer,
  type RouteRequest,
  type RouteResponse,
} from './call-route';

/** An injector that records what it was sent and answers `answer`. */
function recorder(answer: RouteResponse) {
  const sent: RouteRequest[] = [];
  const inject = async (request: RouteRequest) => {
    sent.push(request);
    return answer;
  };
  return { sent, inject };
}

const ALERT = { success: true, message: 'Alert deleted' };

describe('callRoute', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fills in and encodes the path parameters, writes the query, sends the JSON body and the cookie', async () => {
    const { sent, inject } = recorder({
      statusCode: 200,
      headers: {},
      body: JSON.stringify(ALERT),
    });
    await callRoute(inject, 'DELETE /api/alerts/delete/:id', { params: { id: 'a/b c?' } });
    await callRoute(inject, 'POST /api/conversations/:id/offers/:offerId/accept', {
      params: { id: 'c1', offerId: 'o 2' },
    });
    await callRoute(inject, 'GET /api/listing/get', {
      query: { type: 'sale', limit: 4, searchTerm: undefined, major: 'A&B' },
    });
    await callRoute(inject, 'PUT /api/term-end-mail', {
      body: { subscribed: true },
      as: { cookie: 'session=abc' },
      headers: { 'x-extra': '1' },
    });
    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'DELETE /api/alerts/delete/a%2Fb%20c%3F',
      'POST /api/conversations/c1/offers/o%202/accept',
      'GET /api/listing/get?type=sale&limit=4&major=A%26B',
      'PUT /api/term-end-mail',
    ]);
    expect(sent[0]).not.toHaveProperty('payload');
    expect(sent[0]!.headers).toEqual({ accept: 'application/json' });
    expect(sent[3]).toMatchObject({
      payload: '{"subscribed":true}',
      headers: {
        'content-type': 'application/json',
        cookie: 'session=abc',
        'x-extra': '1',
      },
    });
  });

  it('answers a 2xx with its JSON and headers, typed by the route', async () => {
    const event = { conversationId: 'c1' };
    const { inject } = recorder({
      statusCode: 201,
      headers: { 'x-total-count': 3, 'set-cookie': ['a=1', 'b=2'] },
      body: JSON.stringify(event),
    });
    const answer = await callRoute(inject, 'POST /api/conversations', {
      body: { listingId: 'l1', text: 'Hi' },
    });
    expectTypeOf(answer).toEqualTypeOf<RouteAnswer<'POST /api/conversations'>>();
    expect(answer).toMatchObject({ ok: true, status: 201, data: event });
    expect(answer.headers.get('x-total-count')).toBe('3');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    if (answer.ok) expectTypeOf(answer.data).toEqualTypeOf<SentEvent>();
    // An answer without a body (a 204) has no data.
    const empty = recorder({ statusCode: 204, headers: {}, body: '' });
    const deleted = await callRoute(empty.inject, 'DELETE /api/uploads/:id', {
      params: { id: 'u1' },
    });
    expect(deleted).toMatchObject({ ok: true, status: 204, data: undefined });
  });

  it('answers a failure in the error shape, or null with the text when it is not', async () => {
    const refusal = {
      success: false,
      statusCode: 400,
      message: 'Check the highlighted fields.',
      errors: [{ field: 'text', message: 'is required' }],
    };
    const shaped = recorder({ statusCode: 400, headers: {}, body: JSON.stringify(refusal) });
    const refused = await callRoute(shaped.inject, 'POST /api/conversations', {
      body: { listingId: 'l1', text: '' },
    });
    expect(refused).toEqual({
      ok: false,
      status: 400,
      headers: new Headers(),
      error: refusal,
      text: JSON.stringify(refusal),
    });
    const proxy = recorder({ statusCode: 502, headers: {}, body: '<h1>Bad gateway</h1>' });
    const failed = await callRoute(proxy.inject, 'GET /api/alerts/get');
    expect(failed).toMatchObject({
      ok: false,
      status: 502,
      error: null,
      text: '<h1>Bad gateway</h1>',
    });
    // callRouteData throws, naming the route, its status and the server's message.
    const thrown = await callRouteData(shaped.inject, 'GET /api/alerts/get').catch(
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(RouteCallError);
    expect((thrown as Error).message).toBe(
      'GET /api/alerts/get answered 400: Check the highlighted fields.',
    );
    expect(() => dataOf(failed)).toThrow('The call answered 502: <h1>Bad gateway</h1>');
    expect(errorOf(refused)).toEqual(refusal);
    expect(() => errorOf(failed)).toThrow("502, not an error in the API's shape");
  });

  it('sends to a base URL with fetch', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify([]), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const alerts = await callRouteData('http://127.0.0.1:3000/', 'GET /api/alerts/get', {
      as: { cookie: 'session=abc' },
    });
    expectTypeOf(alerts).toEqualTypeOf<Alert[]>();
    expect(alerts).toEqual([]);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:3000/api/alerts/get');
    expect(init).toMatchObject({ method: 'GET', headers: { cookie: 'session=abc' } });
  });
});

// Compiled by the type check (tsc): each @ts-expect-error fails the build if the line under it
// compiles, so these are the claims that a wrong call of a route does not compile.
describe('callRoute types its calls from the route table', () => {
  it('refuses a route the table does not have, a missing parameter, a wrong body or query', () => {
    const { inject } = recorder({ statusCode: 200, headers: {}, body: '' });
    const use = async () => {
      // @ts-expect-error: no such route in the table.
      await callRoute(inject, 'GET /api/listing/all');
      // @ts-expect-error: the method is part of the route: the table has no GET of it.
      await callRoute(inject, 'GET /api/alerts/create');
      // @ts-expect-error: the route's path parameter is required.
      await callRoute(inject, 'DELETE /api/alerts/delete/:id');
      await callRoute(inject, 'POST /api/conversations/:id/offers/:offerId/accept', {
        // @ts-expect-error: both of the route's path parameters are required.
        params: { id: 'c1' },
      });
      // @ts-expect-error: the route's body is required.
      await callRoute(inject, 'POST /api/conversations');
      await callRoute(inject, 'POST /api/alerts/create', {
        // @ts-expect-error: `maxPrice` is a number in the alert's schema.
        body: { searchTerm: 'x', maxPrice: '1' },
      });
      // @ts-expect-error: a GET of the table takes no body.
      await callRoute(inject, 'GET /api/saved/get', { body: {} });
      // @ts-expect-error: the meetups query names `conversationId`, not `conversation`.
      await callRoute(inject, 'GET /api/meetups', { query: { conversation: 'x' } });
      // @ts-expect-error: a target is a base URL or an injector.
      await callRoute(42, 'GET /api/alerts/get');
      const answer = await callRoute(inject, 'DELETE /api/alerts/delete/:id', {
        params: { id: 'a1' },
      });
      // @ts-expect-error: the data is the success's; a failure has none.
      void answer.data;
      if (answer.ok) expectTypeOf(answer.data).toEqualTypeOf<ApiMessage>();
      else expectTypeOf(answer.error?.message).toEqualTypeOf<string | undefined>();
    };
    expectTypeOf(use).toBeFunction();
  });
});
