import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, post } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { mailsTo } from '../outbox';

/**
 * Issue 11 item 5: the profile's e-mail change mailed any address at will and told apart a
 * registered address (409) from a free one (200).
 */
describe(`e-mail change: no mail cannon, no oracle (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...GENEROUS_LIMITS, RATE_LIMIT_MAIL_PER_ADDRESS: '3' });
  });
  afterAll(() => t.close());

  const change = (user: TestUser, email: string) =>
    post(t, `/api/user/update/${user.id}`, { email, currentPassword: user.password }, user.cookie);

  it('20 changes at once to one third-party address mail it at most RATE_LIMIT_MAIL_PER_ADDRESS times', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    const target = 'victim.inbox@richmond.edu';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => change(users[i % users.length]!, target)),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(answers.some((a) => a.statusCode === 429)).toBe(true);
    expect((await mailsTo(t, target)).length).toBeLessThanOrEqual(3);
  });

  it('limits e-mail changes per account too', async () => {
    const user = await createUser(t);
    const codes = [];
    for (let i = 0; i < 5; i += 1) {
      codes.push((await change(user, `spray${i}.${user.id.slice(0, 6)}@richmond.edu`)).statusCode);
    }
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(codes.slice(3)).toEqual([429, 429]);
  });

  it('answers the same for a registered and an unregistered new address; the owner gets a notice', async () => {
    const owner = await createUser(t);
    const [a, b] = [await createUser(t), await createUser(t)];
    const free = `free.${owner.id.slice(0, 8)}@richmond.edu`;
    const taken = await change(a, owner.email);
    const untaken = await change(b, free);
    expect(taken.statusCode).toBe(untaken.statusCode);
    const shape = (body: Record<string, unknown>, user: TestUser, email: string) =>
      JSON.parse(
        JSON.stringify(body)
          .replaceAll(user.id, 'ID')
          .replaceAll(user.email, 'EMAIL')
          .replaceAll(user.username, 'NAME')
          .replaceAll(user.groupmelink, 'LINK')
          .replaceAll(email, 'NEW'),
      ) as Record<string, unknown>;
    const { createdAt: _x, ...takenBody } = taken.json();
    const { createdAt: _y, ...untakenBody } = untaken.json();
    expect(shape(takenBody, a, owner.email)).toEqual(shape(untakenBody, b, free));
    const notice = (await mailsTo(t, owner.email)).at(-1);
    expect(notice?.subject).toBe('Someone tried to use your e-mail address on Campus Books');
    expect(notice?.text).not.toContain('/verify-email/');
  });
});
