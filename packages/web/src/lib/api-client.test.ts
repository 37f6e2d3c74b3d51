import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCall, OFFLINE_WRITE_MESSAGE } from './api-client';

function answer(status: number, body: unknown, onLine = true) {
  vi.stubGlobal('navigator', { onLine });
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('apiCall errors', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells a 429 that asks for a challenge from a plain 429', async () => {
    answer(429, {
      success: false,
      statusCode: 429,
      message: 'Too many attempts from your network.',
      challengeRequired: true,
    });
    const signIn = () =>
      apiCall('POST /api/auth/signin', { body: { email: 'a@b.edu', password: 'x' } }).catch(
        (e: unknown) => e,
      );
    const asked = await signIn();
    expect(asked).toBeInstanceOf(ApiError);
    expect(asked).toMatchObject({ status: 429, challengeRequired: true });

    answer(429, { success: false, statusCode: 429, message: 'Too many attempts.' });
    const refused = await signIn();
    expect(refused).toMatchObject({ status: 429, challengeRequired: false });
  });
});

describe('apiCall offline', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a write while the browser is offline, without sending it', async () => {
    const fetch = answer(200, { success: true }, false);
    const writes = [
      () => apiCall('POST /api/listing/mark-as-sold/:id', { params: { id: 'l1' } }),
      () => apiCall('DELETE /api/listing/delete/:id', { params: { id: 'l1' } }),
    ];
    for (const write of writes) {
      const refused = await write().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 0, message: OFFLINE_WRITE_MESSAGE });
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says whether a write whose connection failed may have arrived', async () => {
    const navigator = { onLine: true };
    vi.stubGlobal('navigator', navigator);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const send = () =>
      apiCall('POST /api/listing/relist/:id', { params: { id: 'l1' } }).catch((e: unknown) => e);
    // Online as far as the browser knows: the request may have reached the server.
    expect(await send()).toMatchObject({ status: 0, message: expect.stringContaining('may not') });
    // Offline: the browser sent nothing.
    navigator.onLine = false;
    const read = await apiCall('GET /api/listing/get').catch((e: unknown) => e);
    expect(read).toMatchObject({ status: 0, message: expect.stringContaining("You're offline") });
  });

  it('still reads while the browser says it is offline (the service worker may answer)', async () => {
    const fetch = answer(200, [{ id: 'a' }], false);
    await expect(apiCall('GET /api/listing/get')).resolves.toEqual([{ id: 'a' }]);
    expect(fetch).toHaveBeenCalledOnce();
  });
});

describe('apiCall', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the route’s method to its path, parameters encoded, the query and the JSON body', async () => {
    const fetch = answer(200, { success: true, message: 'Alert deleted' });
    await apiCall('DELETE /api/alerts/delete/:id', { params: { id: 'a/b c' } });
    await apiCall('GET /api/listing/get', {
      query: { type: 'sale', limit: 4, searchTerm: undefined },
    });
    await apiCall('POST /api/meetups/:id/accept', { params: { id: 'm1' } });
    await apiCall('PUT /api/term-end-mail', { body: { subscribed: true } });
    const sent = fetch.mock.calls.map((call) => {
      const [url, init] = call as unknown as [string, RequestInit];
      return [url, init.method, init.body ?? null];
    });
    expect(sent).toEqual([
      ['/api/alerts/delete/a%2Fb%20c', 'DELETE', null],
      ['/api/listing/get?type=sale&limit=4', 'GET', null],
      ['/api/meetups/m1/accept', 'POST', null],
      ['/api/term-end-mail', 'PUT', '{"subscribed":true}'],
    ]);
  });

  it('answers undefined for an answer without a body (a 204)', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(
      apiCall('DELETE /api/uploads/:id', { params: { id: 'u1' } }),
    ).resolves.toBeUndefined();
  });
});
