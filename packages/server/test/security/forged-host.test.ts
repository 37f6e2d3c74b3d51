import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBody } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../helpers';
import { mailsTo } from '../outbox';

/**
 * Links and Location headers the server builds never take their host from the request: a forged
 * Host or X-Forwarded-Host (behind a proxy that passes it on) cannot turn an e-mailed verification or
 * reset link, or an upload's Location, into a link to another site.
 */
const FORGED = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  'content-type': 'application/json',
};

describe.each([false, true])(
  `links built from the request (TRUST_PROXY=%s) (${TEST_ENGINE})`,
  (trustProxy) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        PUBLIC_URL: 'https://books.example.edu',
        TRUST_PROXY: String(trustProxy),
        RATE_LIMIT_MAIL_PER_IP: '1000',
        RATE_LIMIT_SIGNUP_PER_IP: '1000',
      });
    });
    afterAll(() => t.close());

    const links = (text: string) => text.match(/https?:\/\/[^\s>")]+/g) ?? [];

    it('e-mailed verification and reset links point at PUBLIC_URL', async () => {
      const body = signUpBody();
      const signUp = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: FORGED,
        payload: body,
      });
      expect(signUp.statusCode).toBe(201);
      const user = await createUser(t);
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: FORGED,
        payload: { email: user.email },
      });
      expect(reset.statusCode).toBe(200);

      const mails = [...(await mailsTo(t, body.email)), ...(await mailsTo(t, user.email))];
      expect(mails.length).toBeGreaterThanOrEqual(2);
      const sent = mails.flatMap((m) => [...links(m.text), ...links(m.html)]);
      expect(sent.some((l) => l.includes('/verify-email/'))).toBe(true);
      expect(sent.some((l) => l.includes('/reset-password/'))).toBe(true);
      for (const link of sent.filter((l) => /verify-email|reset-password|sign-in/.test(l))) {
        expect(new URL(link).origin).toBe('https://books.example.edu');
      }
      expect(sent.join(' ')).not.toContain('evil.example');
    });

    it("an upload's Location stays on this site", async () => {
      const user = await createUser(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: {
          host: 'evil.example',
          'x-forwarded-host': 'evil.example',
          cookie: user.cookie,
          'tus-resumable': '1.0.0',
          'upload-length': '100',
          'upload-metadata': `filename ${Buffer.from('a.jpg').toString('base64')},filetype aW1hZ2UvanBlZw==`,
        },
      });
      expect(res.statusCode).toBe(201);
      const location = String(res.headers.location);
      expect(location).toMatch(/^\/api\/uploads\//);
      expect(new URL(location, 'https://books.example.edu').origin).toBe(
        'https://books.example.edu',
      );
    });
  },
);
