import { signUpBody } from '../accounts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { createUploadedImage } from '../support/test-uploaded-image';
import { listRoutes, type RouteEntry } from './security-helpers';

/** Routes the contract promises (spec section 7 and docs/api/*.md); the app must have each. */
export const EXPECTED_ROUTES: RouteEntry[] = [
  { method: 'GET', path: '/api/health' },
  { method: 'GET', path: '/api/config' },
  { method: 'POST', path: '/api/auth/signup' },
  { method: 'POST', path: '/api/auth/signin' },
  { method: 'POST', path: '/api/auth/signout' },
  { method: 'POST', path: '/api/auth/verify-email' },
  { method: 'POST', path: '/api/auth/resend-verification' },
  { method: 'POST', path: '/api/auth/reset-password/:token' },
  { method: 'GET', path: '/api/auth/me' },
  { method: 'POST', path: '/api/auth/forgot-password' },
  { method: 'GET', path: '/api/auth/challenge' },
  { method: 'POST', path: '/api/user/update/:id' },
  { method: 'DELETE', path: '/api/user/delete/:id' },
  { method: 'GET', path: '/api/user/get/:id' },
  { method: 'GET', path: '/api/user/listings/:id' },
  { method: 'GET', path: '/api/listing/get' },
  { method: 'GET', path: '/api/listing/get/:id' },
  { method: 'POST', path: '/api/listing/create' },
  { method: 'POST', path: '/api/listing/update/:id' },
  { method: 'POST', path: '/api/listing/mark-as-sold/:id' },
  { method: 'POST', path: '/api/listing/relist/:id' },
  { method: 'DELETE', path: '/api/listing/delete/:id' },
  { method: 'POST', path: '/api/listing/request-review/:id' },
  { method: 'POST', path: '/api/uploads/' },
  { method: 'PATCH', path: '/api/uploads/:id' },
  { method: 'DELETE', path: '/api/uploads/:id' },
  { method: 'GET', path: '/api/images/:id/:file' },
  { method: 'GET', path: '/api/books/:isbn' },
  { method: 'GET', path: '/api/books/:isbn/prices' },
  { method: 'POST', path: '/api/books/:isbn/cover' },
  { method: 'GET', path: '/api/course/:code' },
  { method: 'GET', path: '/api/course/:code/prices' },
  { method: 'GET', path: '/api/alerts/get' },
  { method: 'POST', path: '/api/alerts/create' },
  { method: 'POST', path: '/api/alerts/update/:id' },
  { method: 'DELETE', path: '/api/alerts/delete/:id' },
  { method: 'POST', path: '/api/alerts/unsubscribe' },
  { method: 'GET', path: '/api/alerts/unsubscribe' },
  { method: 'GET', path: '/api/alerts/demand' },
  { method: 'GET', path: '/api/alerts/most-wanted' },
  { method: 'GET', path: '/api/saved/get' },
  { method: 'POST', path: '/api/saved/add/:id' },
  { method: 'DELETE', path: '/api/saved/remove/:id' },
  { method: 'GET', path: '/api/saved/mails' },
  { method: 'POST', path: '/api/saved/mails' },
  { method: 'GET', path: '/api/listing-link/:token' },
  { method: 'POST', path: '/api/listing-link/:token' },
  { method: 'POST', path: '/api/reports/:listingId' },
  { method: 'GET', path: '/api/moderation/queue' },
  { method: 'GET', path: '/api/moderation/log' },
  { method: 'POST', path: '/api/moderation/listings/:listingId/dismiss' },
  { method: 'POST', path: '/api/moderation/listings/:listingId/remove' },
  { method: 'POST', path: '/api/moderation/listings/:listingId/restore' },
  { method: 'POST', path: '/api/moderation/users/:userId/suspend' },
  { method: 'POST', path: '/api/moderation/users/:userId/unsuspend' },
  { method: 'GET', path: '/api/conversations/' },
  { method: 'GET', path: '/api/conversations/unread' },
  { method: 'GET', path: '/api/conversations/events' },
  { method: 'POST', path: '/api/conversations/' },
  { method: 'GET', path: '/api/conversations/:id' },
  { method: 'POST', path: '/api/conversations/:id/messages' },
  { method: 'POST', path: '/api/conversations/:id/read' },
  { method: 'POST', path: '/api/conversations/:id/offers' },
  { method: 'POST', path: '/api/conversations/:id/offers/:offerId/accept' },
  { method: 'POST', path: '/api/conversations/:id/offers/:offerId/decline' },
  { method: 'GET', path: '/api/conversations/:id/bundle-candidates' },
  { method: 'POST', path: '/api/conversations/offers' },
  { method: 'GET', path: '/api/listing/:id/bundle-candidates' },
  { method: 'POST', path: '/api/conversations/listing/:listingId/release' },
  { method: 'POST', path: '/api/conversations/listing/:listingId/sold' },
  { method: 'GET', path: '/api/blocks/' },
  { method: 'POST', path: '/api/blocks/:userId' },
  { method: 'DELETE', path: '/api/blocks/:userId' },
  // Round 3, and the routes of operations, documents and single sign-on.
  { method: 'POST', path: '/api/csp-report' },
  { method: 'GET', path: '/api/conversations' },
  { method: 'POST', path: '/api/conversations' },
  { method: 'GET', path: '/api/privacy' },
  { method: 'GET', path: '/api/profiles/:id' },
  { method: 'GET', path: '/api/push/key' },
  { method: 'GET', path: '/api/push/subscriptions' },
  { method: 'POST', path: '/api/push/subscriptions' },
  { method: 'DELETE', path: '/api/push/subscriptions' },
  { method: 'GET', path: '/api/auth/session' },
  { method: 'POST', path: '/api/admin/backup' },
  { method: 'POST', path: '/api/uploads' },
  { method: 'GET', path: '/api/blocks' },
  { method: 'GET', path: '/api/my-courses/get' },
  { method: 'POST', path: '/api/my-courses/add' },
  { method: 'POST', path: '/api/my-courses/remove' },
  { method: 'POST', path: '/api/my-courses/calendar' },
  { method: 'GET', path: '/api/my-courses/books' },
  { method: 'POST', path: '/api/my-courses/notify' },
  { method: 'GET', path: '/api/my-courses/suggest' },
  { method: 'GET', path: '/api/meetups' },
  { method: 'POST', path: '/api/meetups' },
  { method: 'GET', path: '/api/meetups/' },
  { method: 'POST', path: '/api/meetups/' },
  { method: 'POST', path: '/api/meetups/:id/accept' },
  { method: 'POST', path: '/api/meetups/:id/decline' },
  { method: 'GET', path: '/api/meetups/:id/calendar.ics' },
  { method: 'GET', path: '/api/statistics' },
  { method: 'GET', path: '/api/drafts' },
  { method: 'GET', path: '/api/drafts/' },
  { method: 'POST', path: '/api/drafts/publish' },
  { method: 'PUT', path: '/api/drafts/:id' },
  { method: 'DELETE', path: '/api/drafts/:id' },
  { method: 'POST', path: '/api/data-export' },
  { method: 'GET', path: '/api/data-export/download' },
  { method: 'GET', path: '/api/docs' },
  { method: 'GET', path: '/api/docs/reference.js' },
  { method: 'GET', path: '/api/docs/scalar.js' },
  { method: 'GET', path: '/api/term-end-mail' },
  { method: 'PUT', path: '/api/term-end-mail' },
  { method: 'GET', path: '/api/term-end-mail/' },
  { method: 'PUT', path: '/api/term-end-mail/' },
  { method: 'GET', path: '/api/ratings/exchanges' },
  { method: 'GET', path: '/api/ratings/exchanges/:id' },
  { method: 'POST', path: '/api/ratings/exchanges/:id' },
  { method: 'GET', path: '/api/ratings/reported' },
  { method: 'POST', path: '/api/ratings/:id/report' },
  { method: 'POST', path: '/api/ratings/:id/remove' },
  { method: 'POST', path: '/api/ratings/:id/dismiss' },
  { method: 'GET', path: '/api/openapi.json' },
  // Reported conversations (issue 28).
  { method: 'POST', path: '/api/conversations/:id/report' },
  { method: 'GET', path: '/api/moderation/conversations' },
  { method: 'GET', path: '/api/moderation/conversations/' },
  { method: 'GET', path: '/api/moderation/conversations/:id' },
  { method: 'POST', path: '/api/moderation/conversations/:id/dismiss' },
  // Photos in a conversation (issue 44).
  { method: 'GET', path: '/api/conversations/:id/photos/:imageId/:file' },
  { method: 'GET', path: '/api/conversations/mails' },
  { method: 'POST', path: '/api/conversations/mails' },
  { method: 'GET', path: '/api/conversations/receipts' },
  { method: 'POST', path: '/api/conversations/receipts' },
];

/** The campus moderator of an attack world (MODERATOR_EMAILS). */
export const ATTACK_MODERATOR_EMAIL = 'moderator@richmond.edu';

const moderators = new WeakMap<AttackWorld, Promise<TestUser>>();
/** The world's one moderator account (its address is unique), made on first use. */
export function moderatorOf(w: AttackWorld): Promise<TestUser> {
  let moderator = moderators.get(w);
  if (!moderator) {
    moderator = createUser(w.t, { email: ATTACK_MODERATOR_EMAIL });
    moderators.set(w, moderator);
  }
  return moderator;
}

export const isTus = (route: RouteEntry) => route.path.startsWith('/api/uploads');
export const isStateChanging = (route: RouteEntry) => route.method !== 'GET';
/** The live event stream: a request it accepts never ends (its own tests read it over a socket). */
export const isEventStream = (route: RouteEntry) => route.path === '/api/conversations/events';

/** A valid body for the routes that read JSON; the attacks are near misses of it. */
export function validBodyFor(route: RouteEntry): Record<string, unknown> | undefined {
  const bodies: Record<string, () => Record<string, unknown>> = {
    'POST /api/auth/signup': () => signUpBody(),
    'POST /api/auth/signin': () => ({ email: 'someone@richmond.edu', password: 'Secret-123' }),
    'POST /api/auth/verify-email': () => ({ token: 'abc' }),
    'POST /api/auth/resend-verification': () => ({ email: 'someone@richmond.edu' }),
    'POST /api/auth/forgot-password': () => ({ email: 'someone@richmond.edu' }),
    'POST /api/auth/reset-password/:token': () => ({ password: 'Secret-123' }),
    'POST /api/user/update/:id': () => ({ username: 'New Name' }),
    'POST /api/listing/create': () => listingBody(),
    'POST /api/listing/update/:id': () => listingBody(),
    'POST /api/alerts/create': () => ({ subject: 'ECON', courseNumber: '101', maxPrice: 30 }),
    'POST /api/alerts/update/:id': () => ({ subject: 'ECON', courseNumber: '101', paused: true }),
    'POST /api/alerts/unsubscribe': () => ({ token: 'abc.def' }),
    'POST /api/saved/mails': () => ({ savedListingMails: false }),
    'POST /api/conversations/mails': () => ({ messageMails: false }),
    'POST /api/conversations/receipts': () => ({ readReceipts: false }),
    'POST /api/reports/:listingId': () => ({ reason: 'spam_or_scam', note: 'Asks for a deposit' }),
    'POST /api/moderation/listings/:listingId/remove': () => ({ reason: 'Not a textbook' }),
    'POST /api/moderation/users/:userId/suspend': () => ({ reason: 'Scam reports' }),
    'POST /api/conversations/': () => ({
      listingId: '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a',
      text: 'Is it still available?',
    }),
    'POST /api/conversations/:id/messages': () => ({ text: 'See you at the library' }),
    'POST /api/conversations/:id/read': () => ({ upTo: 1 }),
    'POST /api/conversations/:id/offers': () => ({ amount: 10 }),
    'POST /api/conversations/offers': () => ({
      listingId: '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a',
      amount: 10,
      listingIds: ['1c9f6b73-4d2e-4e9f-8b68-2e3f4d5c6b7a'],
      text: 'Both books?',
      clientId: '5d0a7c84-5e3f-4fa0-9c79-3f4a5e6d7c8b',
    }),
    'POST /api/conversations/:id/report': () => ({ reason: 'harassment', note: 'Threats' }),
    'POST /api/conversations/listing/:listingId/sold': () => ({ buyerId: null }),
    'PUT /api/drafts/:id': () => ({ fields: { name: 'Calculus' }, imageUrls: [] }),
    'POST /api/drafts/publish': () => ({ draftIds: ['0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a'] }),
    'POST /api/ratings/exchanges/:id': () => ({ positive: true, tags: ['on_time'] }),
    'POST /api/ratings/:id/report': () => ({ reason: 'Not what happened' }),
    'POST /api/ratings/:id/remove': () => ({ reason: 'Abusive' }),
    'POST /api/meetups': () => ({
      conversationId: '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a',
      spotId: 'library-lobby',
      startsAt: '2030-01-01T15:00:00Z',
    }),
    'POST /api/my-courses/add': () => ({ text: 'ECON 101' }),
    'POST /api/my-courses/remove': () => ({ course: 'ECON 101' }),
    'POST /api/my-courses/notify': () => ({ courses: ['ECON 101'] }),
    'PUT /api/term-end-mail': () => ({ subscribed: false }),
  };
  return bodies[`${route.method} ${route.path}`]?.();
}

export interface AttackWorld {
  t: TestApp;
  owner: TestUser;
  unverified: TestUser;
  listingId: string;
  routes: RouteEntry[];
  /** Real ids a path may name, so validation behind the owner check is reached too. */
  realIdsFor(route: RouteEntry): string[];
  cookieOf(who: 'none' | 'owner' | 'unverified'): string | undefined;
}

/** The app with a verified owner, an unverified user and one listing; limits out of the way. */
export async function createAttackWorld(env: Record<string, string> = {}): Promise<AttackWorld> {
  const t = await createTestApp({
    RATE_LIMIT_SIGNIN_PER_IP: '1000000',
    RATE_LIMIT_SIGNIN_PER_ACCOUNT: '1000000',
    RATE_LIMIT_SIGNUP_PER_IP: '1000000',
    RATE_LIMIT_MAIL_PER_IP: '1000000',
    RATE_LIMIT_MAIL_PER_ADDRESS: '1000000',
    RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000000',
    MODERATOR_EMAILS: ATTACK_MODERATOR_EMAIL,
    ...env,
  });
  const owner = await createUser(t);
  const unverified = await createUser(t, { verified: false });
  // The owner's own upload: listings take only their seller's images.
  const listing = await createListingAs(t, owner, {
    imageUrls: [await createUploadedImage(t, owner.id)],
  });
  return {
    t,
    owner,
    unverified,
    listingId: listing._id,
    routes: listRoutes(t.app),
    // Only the update routes: a bodyless route given a real id would simply succeed (delete, sold).
    realIdsFor: (route) =>
      route.path === '/api/user/update/:id'
        ? [owner.id]
        : route.path === '/api/listing/update/:id'
          ? [listing._id]
          : [],
    cookieOf: (who) =>
      who === 'owner' ? owner.cookie : who === 'unverified' ? unverified.cookie : undefined,
  };
}
