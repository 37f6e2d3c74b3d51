import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBody } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { CHALLENGE_MESSAGES } from './challenge';
import { DEVICE_COOKIE } from './known-device';

/** A challenge any test solves in milliseconds. */
const EASY_CHALLENGE = { ALTCHA_COST: '1', ALTCHA_MAX_COUNTER: '40' };
const CAMPUS_IP = '10.77.0.1';

function signIn(
  t: TestApp,
  body: { email: string; password: string; altcha?: string },
  ip = CAMPUS_IP,
  cookie?: string,
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: body,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
  });
}

function deviceCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === DEVICE_COOKIE);
  if (!cookie?.value) throw new Error('no known-device cookie');
  return `${cookie.name}=${cookie.value}`;
}

/** Fetches a challenge from the API and solves it as the browser widget does. */
async function solvedChallenge(t: TestApp): Promise<string> {
  // Raw: the challenge route is altcha's, outside the route table; altcha types its answer.
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/challenge' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

async function failures(t: TestApp, email: string, count: number, ip = CAMPUS_IP) {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) {
    codes.push((await signIn(t, { email, password: `stranger-guess-${i}` }, ip)).statusCode);
  }
  return codes;
}

describe(`campus NAT: the default limits (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(EASY_CHALLENGE);
  });
  afterAll(() => t.close());

  it('accepts 300 sign-ups from one address within the hour', async () => {
    const codes: number[] = [];
    for (let batch = 0; batch < 100; batch++) {
      const answers = await Promise.all(
        [0, 1, 2].map(() =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/signup',
            payload: signUpBody(),
            remoteAddress: CAMPUS_IP,
          }),
        ),
      );
      codes.push(...answers.map((a) => a.statusCode));
    }
    const accepted = codes.filter((c) => c === 201).length;
    console.log(`[figure] campus NAT: ${accepted}/300 sign-ups from one address accepted`);
    expect(accepted).toBe(300);
  }, 120_000);

  it('lets a known device in after 100 strangers failed on its address and its account; refuses the 101st failure', async () => {
    const owner = await createUser(t);
    const first = await signIn(t, { email: owner.email, password: owner.password });
    expect(first.statusCode).toBe(200);
    const device = deviceCookieOf(first);

    const codes = await failures(t, owner.email, 100);
    expect(codes.every((c) => c === 401)).toBe(true);
    const hundredFirst = await signIn(t, { email: owner.email, password: 'guess-101' });
    expect(hundredFirst.statusCode).toBe(429);
    expect(hundredFirst.json().message).toMatch(
      /^Too many attempts\. Try again in \d+ minutes?\.$/,
    );
    // Also from another address: the count is the account's.
    expect((await failures(t, owner.email, 1, '10.78.0.9'))[0]).toBe(429);

    const known = await signIn(
      t,
      { email: owner.email, password: owner.password },
      CAMPUS_IP,
      device,
    );
    expect(known.statusCode).toBe(200);
    // The same cookie from any address: the device is what is known.
    const elsewhere = await signIn(
      t,
      { email: owner.email, password: owner.password },
      '192.0.2.44',
      device,
    );
    expect(elsewhere.statusCode).toBe(200);
    // A device that never signed in to the account waits for the window (documented).
    const unknown = await signIn(t, { email: owner.email, password: owner.password });
    expect(unknown.statusCode).toBe(429);
    console.log(
      '[figure] campus NAT: known device signed in after 100 strangers failed on its address and account; 101st failure refused',
    );
  }, 60_000);

  it('counts failures only: 110 correct sign-ins on one account from one address all succeed', async () => {
    const user = await createUser(t);
    let ok = 0;
    for (let i = 0; i < 110; i++) {
      const res = await signIn(t, { email: user.email, password: user.password }, '10.79.0.1');
      if (res.statusCode === 200) ok += 1;
    }
    expect(ok).toBe(110);
  }, 60_000);

  it("a device known to one account is a stranger to another's", async () => {
    const mine = await createUser(t);
    const victim = await createUser(t);
    const res = await signIn(t, { email: mine.email, password: mine.password }, '10.80.0.1');
    const device = deviceCookieOf(res);
    await failures(t, victim.email, 100, '10.80.0.2');
    const guess = await signIn(
      t,
      { email: victim.email, password: 'one-more' },
      '10.80.0.1',
      device,
    );
    expect(guess.statusCode).toBe(429);
  }, 60_000);
});

describe(`campus NAT: an address past its ceiling (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ...EASY_CHALLENGE,
      RATE_LIMIT_SIGNIN_PER_IP: '20',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '5',
      RATE_LIMIT_SIGNUP_PER_IP: '2',
    });
  });
  afterAll(() => t.close());

  it('asks for a challenge instead of refusing, and accepts a solved one once', async () => {
    const student = await createUser(t);
    const known = await createUser(t);
    const device = deviceCookieOf(
      await signIn(t, { email: known.email, password: known.password }),
    );
    // 20 strangers' failures, 4 accounts × 5: each account stays within its own count.
    for (let n = 0; n < 4; n++) await failures(t, `nobody${n}@richmond.edu`, 5);

    const asked = await signIn(t, { email: student.email, password: student.password });
    expect(asked.statusCode).toBe(429);
    expect(asked.json()).toEqual({
      success: false,
      statusCode: 429,
      message: CHALLENGE_MESSAGES.required,
      challengeRequired: true,
    });
    // The known device needs no challenge.
    expect(
      (await signIn(t, { email: known.email, password: known.password }, CAMPUS_IP, device))
        .statusCode,
    ).toBe(200);

    const altcha = await solvedChallenge(t);
    const solved = await signIn(t, { email: student.email, password: student.password, altcha });
    expect(solved.statusCode).toBe(200);
    console.log(
      '[figure] campus NAT: address past its ceiling → challengeRequired; solved challenge → 200',
    );

    const replayed = await signIn(t, { email: student.email, password: student.password, altcha });
    expect(replayed.statusCode).toBe(429);
    expect(replayed.json()).toMatchObject({
      message: CHALLENGE_MESSAGES.failed,
      challengeRequired: true,
    });

    const garbage = await signIn(t, {
      email: student.email,
      password: student.password,
      altcha: Buffer.from('{"challenge":{}}').toString('base64'),
    });
    expect(garbage.json()).toMatchObject({ challengeRequired: true });
  }, 60_000);

  it('accepts one of 25 concurrent requests carrying the same solution', async () => {
    const student = await createUser(t);
    await failures(t, 'filler@richmond.edu', 5, '10.81.0.1');
    for (let n = 0; n < 3; n++) await failures(t, `filler${n}@richmond.edu`, 5, '10.81.0.1');
    const altcha = await solvedChallenge(t);
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        signIn(t, { email: student.email, password: student.password, altcha }, '10.81.0.1'),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 429)).toHaveLength(24);
  }, 60_000);

  it('sign-up: past the ceiling a solved challenge lets the next student in', async () => {
    const ip = '10.82.0.1';
    const signUp = (altcha?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { ...signUpBody(), ...(altcha ? { altcha } : {}) },
        remoteAddress: ip,
      });
    expect((await signUp()).statusCode).toBe(201);
    expect((await signUp()).statusCode).toBe(201);
    const asked = await signUp();
    expect(asked.statusCode).toBe(429);
    expect(asked.json().challengeRequired).toBe(true);
    const altcha = await solvedChallenge(t);
    expect((await signUp(altcha)).statusCode).toBe(201);
    expect((await signUp(altcha)).statusCode).toBe(429);
  });

  it("a known device's own failures are limited too", async () => {
    const user = await createUser(t);
    const device = deviceCookieOf(
      await signIn(t, { email: user.email, password: user.password }, '10.83.0.1'),
    );
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await signIn(
        t,
        { email: user.email, password: `typo-${i}` },
        '10.83.0.1',
        device,
      );
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
