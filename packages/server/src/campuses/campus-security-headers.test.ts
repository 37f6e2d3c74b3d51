import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import { CAMPUS_HOSTS, openTwoCampuses, type TwoCampuses } from '../../test/two-campuses';

/** The process's address is plain http; alpha's own file says it is served over https. */
const PUBLIC_URL = `http://${CAMPUS_HOSTS.beta}`;
const ALPHA = `https://${CAMPUS_HOSTS.alpha}`;

/** An answer and an error: both carry the campus's headers. */
const PATHS = [
  ['/api/listing/get', 200],
  ['/api/no-such-route', 404],
] as const;

const upgrades = (csp: unknown) => String(csp).includes('upgrade-insecure-requests');

// HSTS and the https upgrade follow the request's campus's address (decision 024), not PUBLIC_URL:
// a campus served over https gets them even when the process's address is http, and a campus on
// http never does.
describe.skipIf(TEST_ENGINE !== 'postgres')("each campus's transport security headers", () => {
  let two: TwoCampuses;

  beforeAll(async () => {
    two = await openTwoCampuses({
      env: { PUBLIC_URL },
      campusFields: { alpha: { publicUrl: ALPHA } },
    });
  }, 120_000);

  afterAll(async () => {
    await two?.close();
  });

  it("sends HSTS and the https upgrade on alpha's host, whose address is https", async () => {
    for (const [path, status] of PATHS) {
      const answer = await two.send('alpha', 'GET', path);
      expect(answer.statusCode, path).toBe(status);
      expect(answer.headers['strict-transport-security'], path).toMatch(/^max-age=\d+/);
      expect(upgrades(answer.headers['content-security-policy']), path).toBe(true);
    }
  });

  it("sends neither on beta's host, served over http like PUBLIC_URL", async () => {
    for (const [path, status] of PATHS) {
      const answer = await two.send('beta', 'GET', path);
      expect(answer.statusCode, path).toBe(status);
      expect(answer.headers['strict-transport-security'], path).toBeUndefined();
      expect(upgrades(answer.headers['content-security-policy']), path).toBe(false);
    }
  });

  it('keeps each campus to its own when their requests interleave', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        two.send(i % 2 === 0 ? 'alpha' : 'beta', 'GET', '/api/listing/get'),
      ),
    );
    answers.forEach((answer, i) => {
      expect(answer.headers['strict-transport-security'] !== undefined, `request ${i}`).toBe(
        i % 2 === 0,
      );
    });
  });
});
