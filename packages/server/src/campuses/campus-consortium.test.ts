import { callRoute, dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { TOTAL_COUNT_HEADER } from '@campus-books/common/constants';
import type { SearchedListing } from '@campus-books/common/consortium-listing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBody } from '../../test/accounts';
import { appInjector } from '../../test/api-caller';
import { TEST_CAMPUS_FILE } from '../../test/use-default-campus';
import { readCampusFile } from '../config/campus-file';
import { TEST_ENGINE } from '../../test/helpers';
import {
  CAMPUS_HOSTS,
  openTwoCampuses,
  type CampusKey,
  type CampusStudent,
  type TwoCampuses,
} from '../../test/two-campuses';

/** A word of the names this suite's listings carry, so its searches find its listings only. */
const WORD = 'Thermodynamics';

type SearchInput = NonNullable<ApiCallOptions<'GET /api/listing/get'>['query']>;

/** The Host header of a campus's requests. */
const hostOf = (key: CampusKey) => ({ host: CAMPUS_HOSTS[key] });

async function search(two: TwoCampuses, key: CampusKey, query: SearchInput = {}) {
  const answer = await callRoute(appInjector(two.app), 'GET /api/listing/get', {
    query: { searchTerm: WORD, ...query },
    headers: hostOf(key),
  });
  return { listings: dataOf(answer), total: Number(answer.headers.get(TOTAL_COUNT_HEADER)) };
}

/** GET /api/config on a campus's host: the school domains of its partners. */
async function partnerDomainsOn(two: TwoCampuses, key: CampusKey) {
  const answer = await callRoute(appInjector(two.app), 'GET /api/config', { headers: hostOf(key) });
  return dataOf(answer).partnerEmailDomains;
}

const idsOf = (listings: SearchedListing[]) => listings.map((l) => l._id).sort();

/** The test campus's schools; beta has all but the last (schools are each campus's own). */
const SCHOOLS = readCampusFile(TEST_CAMPUS_FILE).schools;
const ALPHA_ONLY_SCHOOL = SCHOOLS.at(-1)!.key;

// Consortium sharing (issue 45, decision 024), on PostgreSQL: two campuses that each name the other
// show each other's active listings in their searches, marked with the campus, and admit each
// other's students at sign-up; everything else stays walled.
describe.skipIf(TEST_ENGINE !== 'postgres')('consortium sharing, both campuses opting in', () => {
  let two: TwoCampuses;
  const students = {} as Record<CampusKey, CampusStudent>;
  const listings = {} as Record<CampusKey, string>;

  beforeAll(async () => {
    two = await openTwoCampuses({
      campusFields: {
        alpha: { consortium: { share: ['beta'] } },
        beta: { consortium: { share: ['alpha'] }, schools: SCHOOLS.slice(0, -1) },
      },
    });
    for (const key of ['alpha', 'beta'] as const) {
      students[key] = await two.studentOf(key);
      listings[key] = await two.listingOf(key, students[key], {
        name: `${WORD} of ${key}`,
        // The original API's flag of a school beta does not have: not sent to beta.
        [ALPHA_ONLY_SCHOOL]: undefined,
      });
    }
  }, 120_000);

  afterAll(async () => {
    await two?.close();
  });

  it("shows each campus the other's listing, marked with its campus and its address", async () => {
    for (const [own, other] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ] as const) {
      const { listings: found, total } = await search(two, own);
      expect(idsOf(found)).toEqual([listings.alpha, listings.beta].sort());
      expect(total).toBe(2);
      expect(found.find((l) => l._id === listings[own])!.campus).toBeUndefined();
      expect(found.find((l) => l._id === listings[other])!.campus).toEqual({
        key: other,
        name: `${other} University`,
        url: `http://${CAMPUS_HOSTS[other]}`,
      });
    }
  });

  it("serves a partner's listing's cover on this campus's host, as the card shows it", async () => {
    const { listings: found } = await search(two, 'alpha');
    const cover = found.find((l) => l._id === listings.beta)!.imageUrls[0]!;
    const image = await two.send('alpha', 'GET', cover);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('pages through the merged results in the search order, the total the sum', async () => {
    const first = await search(two, 'alpha', { limit: '1' });
    const second = await search(two, 'alpha', { limit: '1', startIndex: '1' });
    expect([first.total, second.total]).toEqual([2, 2]);
    // Newest first: beta's listing was created last.
    expect(first.listings.map((l) => l._id)).toEqual([listings.beta]);
    expect(second.listings.map((l) => l._id)).toEqual([listings.alpha]);
  });

  it('applies a school filter to the partner with only the schools it has', async () => {
    // Both listings are for the second school; beta has no school of alpha's last key.
    const shared = SCHOOLS[1]!.key;
    const both = await search(two, 'alpha', { schools: shared });
    expect(both.total).toBe(2);
    const narrowed = await search(two, 'alpha', { schools: `${shared},${ALPHA_ONLY_SCHOOL}` });
    expect(narrowed.listings.map((l) => l._id)).toEqual([listings.beta]);
    const none = await search(two, 'alpha', { schools: ALPHA_ONLY_SCHOOL });
    expect(none.total).toBe(0);
  });

  it("shows a partner's new listing in a search kept before it, and never one hidden, sold or held", async () => {
    expect((await search(two, 'alpha')).total).toBe(2);
    const ids = {
      hidden: await two.listingOf('beta', students.beta, { name: `${WORD} hidden` }),
      sold: await two.listingOf('beta', students.beta, { name: `${WORD} sold` }),
      held: await two.listingOf('beta', students.beta, { name: `${WORD} held` }),
    };
    // Beta's catalogue changed: alpha's next search has them, though it searched before.
    const before = await search(two, 'alpha');
    expect(before.total).toBe(5);
    for (const id of Object.values(ids)) expect(idsOf(before.listings)).toContain(id);

    // Straight in beta's schema (the test database's owner), as a moderator, a sale and an
    // accepted offer would leave them; each write moves beta's catalogue version.
    await two.admin.query(`UPDATE campus_beta.listings SET status = 'hidden' WHERE id = $1`, [
      ids.hidden,
    ]);
    await two.admin.query(`UPDATE campus_beta.listings SET status = 'sold' WHERE id = $1`, [
      ids.sold,
    ]);
    await two.admin.query(
      `UPDATE campus_beta.listings SET held_until = now() + interval '1 day' WHERE id = $1`,
      [ids.held],
    );
    const after = await search(two, 'alpha');
    expect(idsOf(after.listings)).toEqual([listings.alpha, listings.beta].sort());
    expect(after.total).toBe(2);
    // Beta's own search still shows its held listing (pending), as before.
    expect(idsOf((await search(two, 'beta')).listings)).toContain(ids.held);
  });

  it("lets alpha's student sign up on beta's host with an alpha address, as beta's account", async () => {
    expect(await partnerDomainsOn(two, 'beta')).toEqual([two.campuses.domains.alpha]);

    const body = signUpBody({ email: `visitor@${two.campuses.domains.alpha}` });
    const signUp = await two.send('beta', 'POST', '/api/auth/signup', { payload: body });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const { rows } = await two.admin.query<{ schema: string }>(
      `SELECT 'beta' AS schema FROM campus_beta.users WHERE email = $1
       UNION ALL SELECT 'alpha' FROM campus_alpha.users WHERE email = $1`,
      [body.email],
    );
    expect(rows).toEqual([{ schema: 'beta' }]);

    const stranger = signUpBody({ email: 'someone@elsewhere.example.edu' });
    const refused = await two.send('beta', 'POST', '/api/auth/signup', { payload: stranger });
    expect(refused.statusCode).toBe(400);
  });
});

describe.skipIf(TEST_ENGINE !== 'postgres')('consortium sharing, one side only', () => {
  let two: TwoCampuses;
  const listings = {} as Record<CampusKey, string>;

  beforeAll(async () => {
    // Alpha names beta; beta names nobody: nothing is shared either way.
    two = await openTwoCampuses({ campusFields: { alpha: { consortium: { share: ['beta'] } } } });
    for (const key of ['alpha', 'beta'] as const) {
      const student = await two.studentOf(key);
      listings[key] = await two.listingOf(key, student, { name: `${WORD} of ${key}` });
    }
  }, 120_000);

  afterAll(async () => {
    await two?.close();
  });

  it("shows neither campus the other's listings", async () => {
    for (const key of ['alpha', 'beta'] as const) {
      const { listings: found, total } = await search(two, key);
      expect(found.map((l) => l._id)).toEqual([listings[key]]);
      expect(total).toBe(1);
    }
  });

  it("serves neither campus's covers on the other's host", async () => {
    for (const [host, other] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ] as const) {
      const { listings: found } = await search(two, other);
      const image = await two.send(host, 'GET', found[0]!.imageUrls[0]!);
      expect(image.statusCode).toBe(404);
    }
  });

  it("refuses alpha's address at sign-up on beta's host, and beta's on alpha's", async () => {
    for (const [host, other] of [
      ['beta', 'alpha'],
      ['alpha', 'beta'],
    ] as const) {
      expect(await partnerDomainsOn(two, host)).toEqual([]);
      const body = signUpBody({ email: `visitor@${two.campuses.domains[other]}` });
      const signUp = await two.send(host, 'POST', '/api/auth/signup', { payload: body });
      expect(signUp.statusCode, signUp.body).toBe(400);
    }
  });
});
