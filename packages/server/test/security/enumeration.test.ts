import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, signUpBody } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { printFigure } from './security-helpers';

/** 10 by default keeps the file quick; the reliability run sets TIMING_TRIES=100. */
const TRIES = Number(process.env.TIMING_TRIES ?? 10);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
};

/**
 * Whether an account exists shows neither in the answer nor (beyond noise) in its time. The answers
 * are asserted equal; the times are only printed (a timing assertion would flake on a busy machine).
 */
describe(`no account enumeration (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  async function compare(name: string, url: string, existing: () => object, unknown: () => object) {
    const times = { existing: [] as number[], unknown: [] as number[] };
    const answers = new Set<string>();
    // Interleaved, so a slow moment of the machine hits both sides alike.
    for (let i = 0; i < TRIES; i++) {
      for (const side of ['existing', 'unknown'] as const) {
        const payload = side === 'existing' ? existing() : unknown();
        const started = performance.now();
        const res = await t.app.inject({ method: 'POST', url, payload });
        times[side].push(performance.now() - started);
        answers.add(`${res.statusCode} ${res.body}`);
      }
    }
    printFigure(`enumeration timing ${name} (${TEST_ENGINE}, ${TRIES} tries each, median ms)`, {
      existing: median(times.existing),
      unknown: median(times.unknown),
    });
    return [...answers];
  }

  it('sign-in: a wrong password and an unknown address get one answer', async () => {
    const answers = await compare(
      'sign-in',
      '/api/auth/signin',
      () => ({ email: user.email, password: 'Wrong-pass-1' }),
      () => ({ email: `nobody.${Math.random()}@richmond.edu`, password: 'Wrong-pass-1' }),
    );
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatch(/^401 /);
  });

  it('sign-up: a registered address and a new one get one answer', async () => {
    const answers = await compare(
      'sign-up',
      '/api/auth/signup',
      () => signUpBody({ email: user.email }),
      () => signUpBody(),
    );
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatch(/^201 /);
    await t.app.mailer.flush();
  });

  it('forgot-password: a registered address and an unknown one get one answer', async () => {
    const answers = await compare(
      'forgot-password',
      '/api/auth/forgot-password',
      () => ({ email: user.email }),
      () => ({ email: `nobody.${Math.random()}@richmond.edu` }),
    );
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatch(/^200 /);
    await t.app.mailer.flush();
  });
});
