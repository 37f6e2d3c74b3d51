import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieOf, signUpBody } from '../../test/accounts';
import { TEST_ENGINE } from '../../test/helpers';
import { readRawOutbox } from '../../test/outbox';
import { CAMPUS_HOSTS, openTwoCampuses, type TwoCampuses } from '../../test/two-campuses';

/** The process's address: the suite sets it to beta's host, where alpha's mails must never point. */
const PUBLIC_URL = `http://${CAMPUS_HOSTS.beta}`;
const ALPHA = `http://${CAMPUS_HOSTS.alpha}`;
const MAIL_FROM = 'Installation Books <books@installation.example>';
const ALPHA_SENDER = { name: 'Alpha Textbook Exchange', address: 'books@alpha.example.edu' };
const MODERATORS = {
  alpha: 'moderator@alpha.example.edu',
  beta: 'moderator@beta.example.edu',
  /** MODERATOR_EMAILS: the installation's list, for the campuses that name none. */
  installation: 'operator@alpha.example.edu',
};

interface Received {
  to: string;
  fromName: string;
  fromAddress: string;
  subject: string;
  text: string;
}

// Each campus's address, sender and moderators (decision 024), on PostgreSQL: links in alpha's
// mails (a request's, a job's) are alpha's host, never the process's PUBLIC_URL; alpha's mails come
// from alpha's sender, beta's from MAIL_FROM's address under beta's name; another campus's origin
// is refused; and a moderator of one campus is no moderator of another.
describe.skipIf(TEST_ENGINE !== 'postgres')("each campus's address, sender and moderators", () => {
  let two: TwoCampuses;

  async function mailsTo(address: string): Promise<Received[]> {
    const raw = await readRawOutbox(two.t);
    const parsed = await Promise.all(raw.map((r) => simpleParser(r)));
    return parsed
      .map((p) => {
        const to = Array.isArray(p.to) ? p.to[0] : p.to;
        return {
          to: to?.value[0]?.address ?? '',
          fromName: p.from?.value[0]?.name ?? '',
          fromAddress: p.from?.value[0]?.address ?? '',
          subject: p.subject ?? '',
          text: p.text ?? '',
        };
      })
      .filter((m) => m.to === address.toLowerCase());
  }

  const linksOf = (text: string) => text.match(/https?:\/\/[^\s<>"]+/g) ?? [];

  beforeAll(async () => {
    two = await openTwoCampuses({
      env: { PUBLIC_URL, MAIL_FROM, MODERATOR_EMAILS: MODERATORS.installation },
      campusFields: {
        alpha: { mail: { from: ALPHA_SENDER }, moderators: [MODERATORS.alpha.toUpperCase()] },
        beta: { moderators: [MODERATORS.beta] },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await two?.close();
  });

  it("mails a sign-up on alpha's host a link to alpha's host, from alpha's sender", async () => {
    const body = signUpBody({ email: `new.student@${two.campuses.domains.alpha}` });
    const signUp = await two.send('alpha', 'POST', '/api/auth/signup', { payload: body });
    expect(signUp.statusCode, signUp.body).toBe(201);

    const [mail] = await mailsTo(body.email);
    expect(mail).toMatchObject({
      fromName: ALPHA_SENDER.name,
      fromAddress: ALPHA_SENDER.address,
    });
    const links = linksOf(mail!.text);
    expect(links.some((l) => l.startsWith(`${ALPHA}/verify-email/`))).toBe(true);
    for (const link of links) expect(link.startsWith(`${ALPHA}/`), link).toBe(true);
  });

  it("mails beta's students from MAIL_FROM's address under beta's name, linking to beta", async () => {
    const body = signUpBody({ email: `new.student@${two.campuses.domains.beta}` });
    const signUp = await two.send('beta', 'POST', '/api/auth/signup', { payload: body });
    expect(signUp.statusCode, signUp.body).toBe(201);

    const [mail] = await mailsTo(body.email);
    expect(mail).toMatchObject({
      fromName: 'beta University',
      fromAddress: 'books@installation.example',
    });
    expect(linksOf(mail!.text).some((l) => l.startsWith(`${PUBLIC_URL}/verify-email/`))).toBe(true);
  });

  it("links an expiry reminder, run by the jobs as alpha, to alpha's host", async () => {
    const seller = await two.studentOf('alpha');
    const listingId = await two.listingOf('alpha', seller);
    // Its last day: the one-day reminder is due; the expiry job's slot is now, in alpha's table.
    await two.admin.query(
      `UPDATE campus_alpha.listings SET expires_at = now() + interval '12 hours' WHERE id = $1`,
      [listingId],
    );
    await two.admin.query(
      `UPDATE campus_alpha.jobs SET run_at = now() - interval '1 second' WHERE key = 'every:listing-expiry'`,
    );
    // The runner is asked outside any campus, as its poll loop is.
    await two.app.jobs.runDue();

    const mails = await mailsTo(seller.email);
    const reminder = mails.find((m) => linksOf(m.text).some((l) => l.includes('/listing-link/')));
    expect(reminder, mails.map((m) => m.subject).join(', ')).toBeDefined();
    expect(reminder).toMatchObject({ fromAddress: ALPHA_SENDER.address });
    for (const link of linksOf(reminder!.text))
      expect(link.startsWith(`${ALPHA}/`), link).toBe(true);
  });

  it("refuses a state-changing request from beta's origin on alpha's host", async () => {
    const student = await two.studentOf('alpha');
    const path = '/api/auth/signout';
    const fromBeta = await two.send('alpha', 'POST', path, {
      cookie: student.cookie,
      headers: { origin: PUBLIC_URL },
    });
    expect(fromBeta.statusCode, fromBeta.body).toBe(403);
    expect(fromBeta.json()).toMatchObject({ success: false, message: expect.any(String) });
    const fromAlpha = await two.send('alpha', 'POST', path, {
      cookie: student.cookie,
      headers: { origin: ALPHA },
    });
    expect(fromAlpha.statusCode, fromAlpha.body).toBeLessThan(400);
  });

  it('makes a moderator of one campus no moderator of another', async () => {
    const queue = '/api/moderation/queue';
    const alphaModerator = await two.studentOf('alpha', { email: MODERATORS.alpha });
    const betaModerator = await two.studentOf('beta', { email: MODERATORS.beta });
    expect(
      (await two.send('alpha', 'GET', queue, { cookie: alphaModerator.cookie })).statusCode,
    ).toBe(200);
    expect(
      (await two.send('beta', 'GET', queue, { cookie: betaModerator.cookie })).statusCode,
    ).toBe(200);

    // Alpha's moderator's account copied onto beta (beta's sign-up takes only beta's domain):
    // verified, yet beta's own list does not name it.
    await two.admin.query(
      'INSERT INTO campus_beta.users SELECT * FROM campus_alpha.users WHERE email = $1',
      [MODERATORS.alpha],
    );
    const onBeta = await two.send('beta', 'POST', '/api/auth/signin', {
      payload: { email: MODERATORS.alpha, password: alphaModerator.password },
    });
    expect(onBeta.statusCode, onBeta.body).toBe(200);
    const sessionCookie = sessionCookieOf(onBeta);
    const refused = await two.send('beta', 'GET', queue, { cookie: sessionCookie });
    expect(refused.statusCode, refused.body).toBe(403);
    const me = await two.send('beta', 'GET', '/api/auth/me', { cookie: sessionCookie });
    expect(me.json()).not.toHaveProperty('isModerator');

    // MODERATOR_EMAILS moderates no campus that names its own.
    const operator = await two.studentOf('alpha', { email: MODERATORS.installation });
    expect((await two.send('alpha', 'GET', queue, { cookie: operator.cookie })).statusCode).toBe(
      403,
    );
  });

  it("never sends a campus's moderators' addresses to the web app", async () => {
    const campus = await two.send('alpha', 'GET', '/api/campus');
    expect(campus.statusCode).toBe(200);
    expect(campus.body).not.toContain(MODERATORS.alpha);
    expect(campus.json()).toMatchObject({ mail: { from: ALPHA_SENDER } });
  });
});
