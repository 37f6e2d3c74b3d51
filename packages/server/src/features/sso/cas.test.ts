import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { GENEROUS_LIMITS, get, post } from '../../../test/accounts';
import { startCasStandIn, type CasStandIn } from '../../../test/support/cas-stand-in';

const PUBLIC_URL = 'http://campus.test';
let t: TestApp;
let cas: CasStandIn;

beforeAll(async () => {
  cas = await startCasStandIn();
  t = await createTestApp({
    ...GENEROUS_LIMITS,
    PUBLIC_URL,
    SCHOOL_EMAIL_DOMAIN: 'richmond.edu',
    SSO_PROTOCOL: 'cas',
    SSO_ADMIT_AFFILIATIONS: 'student@richmond.edu',
    CAS_BASE_URL: cas.url,
  });
});
afterAll(async () => {
  await t?.close();
  await cas?.close();
});

const person = (id: string, mail = `${id}@richmond.edu`, affiliation = 'student@richmond.edu') => ({
  mail: [mail],
  givenName: ['Casey'],
  sn: [`Tester ${id}`],
  eduPersonScopedAffiliation: [affiliation],
});
const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const c = res.cookies.find((x) => x.name === name);
  return c?.value ? `${name}=${c.value}` : '';
};
const userCount = async () =>
  Number((await t.database.db.select({ n: sql<number>`count(*)` }).from(users))[0]!.n);

/** Starts here, signs in at the stand-in: the callback path (with its ticket) and the flow cookie. */
async function throughCas(id: string, attributes = person(id)) {
  cas.signInAs(id, attributes);
  const start = await get(t, '/api/sso/start?returnTo=/saved');
  expect(start.statusCode).toBe(303);
  const login = new URL(String(start.headers.location));
  expect(login.searchParams.get('service')).toBe(`${PUBLIC_URL}/api/sso/cas/callback`);
  const res = await fetch(login, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  return { path: `${back.pathname}${back.search}`, cookie: cookieOf(start, 'cb_sso_flow') };
}
function expectRefused(res: LightMyRequestResponse, reason = 'failed') {
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/sso/problem?reason=${reason}`);
  expect(res.cookies.find((c) => c.name === 'cb_session')).toBeUndefined();
}

describe('CAS 3.0 sign-on against a stand-in that follows the CAS 3.0 specification (no CAS server is packaged)', () => {
  it('creates the account from the attributes, then signs in with one click', async () => {
    const first = await throughCas('casey');
    const res = await get(t, first.path, first.cookie);
    expect(res.headers.location).toBe('/sso/finish');
    const pending = cookieOf(res, 'cb_sso_pending');
    const done = await post(
      t,
      '/api/sso/finish',
      { groupmelink: 'https://groupme.com/contact/9' },
      pending,
    );
    expect(done.statusCode).toBe(201);
    expect(done.json().user.email).toBe('casey@richmond.edu');
    const again = await throughCas('casey');
    const later = await get(t, again.path, again.cookie);
    expect(later.headers.location).toBe('/saved');
    expect(later.cookies.some((c) => c.name === 'cb_session' && c.value)).toBe(true);
    expect(String((await get(t, '/api/sso/logout')).headers.location)).toBe(`${cas.url}/logout`);
  });

  it('refuses a replayed, forged or unbound ticket, creating nothing', async () => {
    const count = await userCount();
    const used = await throughCas('robin');
    await get(t, used.path, used.cookie);
    expectRefused(await get(t, used.path, used.cookie));
    const fresh = await throughCas('robin');
    expectRefused(await get(t, '/api/sso/cas/callback?ticket=ST-forged', fresh.cookie));
    const unbound = await throughCas('robin');
    expectRefused(await get(t, unbound.path));
    expect(await userCount()).toBe(count);
  });

  it('refuses an address outside the campus domain and an affiliation not admitted', async () => {
    const count = await userCount();
    const outsider = await throughCas('out', person('out', 'out@gmail.com'));
    expectRefused(await get(t, outsider.path, outsider.cookie), 'outside-domain');
    const alum = await throughCas('alum', person('alum', undefined, 'alum@richmond.edu'));
    expectRefused(await get(t, alum.path, alum.cookie), 'not-admitted');
    expect(await userCount()).toBe(count);
  });

  it('a callback sent 25 times at once signs in at most once', async () => {
    const cb = await throughCas('casey');
    const answers = await Promise.all(Array.from({ length: 25 }, () => get(t, cb.path, cb.cookie)));
    expect(
      answers.filter((r) => r.cookies.some((c) => c.name === 'cb_session' && c.value)),
    ).toHaveLength(1);
  });
});
