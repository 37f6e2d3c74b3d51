import { describe, expectTypeOf, it, vi } from 'vitest';
import type { CurrentUser } from '@campus-books/common/account.schemas';
import type { Alert } from '@campus-books/common/alert.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { apiCall, type ApiAnswer } from './api-client';

// Compiled by `npm run typecheck` (tsc): each @ts-expect-error below fails the build if the line
// under it compiles, so these are the claims that a changed contract breaks the web app's build.
describe('apiCall types its calls from common/api-routes', () => {
  it('answers the type of the route’s response schema', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('[]')),
    );
    const alerts = () => apiCall('GET /api/alerts/get');
    expectTypeOf(alerts).returns.resolves.toEqualTypeOf<Alert[]>();
    expectTypeOf<ApiAnswer<'GET /api/blocks'>['blocked'][number]>().toEqualTypeOf<{
      id: string;
      username: string;
      blockedAt: string;
    }>();
    // A route whose 2xx answers differ answers any of them: a message, or nothing (tus's 204).
    expectTypeOf<ApiAnswer<'DELETE /api/uploads/:id'>>().toEqualTypeOf<ApiMessage | undefined>();
    expectTypeOf<ApiAnswer<'POST /api/sso/finish'>['user']>().toEqualTypeOf<CurrentUser>();
    expectTypeOf<ApiAnswer<'GET /api/sso/pending'>['firstName']>().toEqualTypeOf<string>();
    vi.unstubAllGlobals();
  });

  it('refuses a field the answer does not have, a route the table does not have, a wrong body', () => {
    const use = async () => {
      const listing = await apiCall('GET /api/listing/get/:id', { params: { id: 'x' } });
      // A listing names its schools as a list of the campus's keys; the original API's one flag per
      // school rides beside it untyped, as any field the schema does not name.
      expectTypeOf(listing.schools).toEqualTypeOf<string[]>();
      expectTypeOf(listing.Jepson).toBeUnknown();
      // @ts-expect-error: a listing has no `sellerEmail` (the answer's schema does not name it).
      void listing.sellerEmail.toLowerCase();
      // @ts-expect-error: no such route in the table.
      await apiCall('GET /api/listing/all');
      // @ts-expect-error: the route's path parameter is required.
      await apiCall('DELETE /api/alerts/delete/:id');
      // @ts-expect-error: `maxPrice` is a number in the alert's schema.
      await apiCall('POST /api/alerts/create', { body: { searchTerm: 'x', maxPrice: '10' } });
      // @ts-expect-error: a GET of the table takes no body.
      await apiCall('GET /api/saved/get', { body: {} });
      // @ts-expect-error: the meetups query names `conversationId`, not `conversation`.
      await apiCall('GET /api/meetups', { query: { conversation: 'x' } });
      // @ts-expect-error: a first sign-on's names are text (the body is built from the campus's rules).
      await apiCall('POST /api/sso/finish', { body: { groupmelink: '', firstName: 1 } });
      // @ts-expect-error: an upload is named by its id.
      await apiCall('DELETE /api/uploads/:id', { params: {} });
    };
    expectTypeOf(use).toBeFunction();
  });
});
