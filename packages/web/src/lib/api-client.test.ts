import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

describe('apiRequest errors', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells a 429 that asks for a challenge from a plain 429', async () => {
    answer(429, {
      success: false,
      statusCode: 429,
      message: 'Too many attempts from your network.',
      challengeRequired: true,
    });
    const asked = await apiRequest('/api/auth/signin', { body: {} }).catch((e: unknown) => e);
    expect(asked).toBeInstanceOf(ApiError);
    expect(asked).toMatchObject({ status: 429, challengeRequired: true });

    answer(429, { success: false, statusCode: 429, message: 'Too many attempts.' });
    const refused = await apiRequest('/api/auth/signin', { body: {} }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, challengeRequired: false });
  });
});
