import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_MESSAGES } from '@campus-books/common/alert.schemas';
import { TEST_ENGINE } from '../../test/helpers';
import { openTwoCampuses, type CampusKey, type TwoCampuses } from '../../test/two-campuses';
import { readUnsubscribeToken, signUnsubscribeToken } from '../features/alerts/unsubscribe-token';
import { readSignedToken } from '../lib/signed-token';
import { runInCampus } from './campus-context';

const SECRET = 'a session secret of the tests, long enough for anyone';

describe('unsubscribe links of the default campus', () => {
  it("are signed with the server's secret as before, so links already mailed keep working", () => {
    const now = new Date();
    const token = signUnsubscribeToken(SECRET, 'a-student', [], now, { kinds: ['meetups'] });
    expect(readSignedToken(SECRET, 'alert-unsubscribe', token)).toMatchObject({ u: 'a-student' });
    expect(readUnsubscribeToken(SECRET, token, now)).toMatchObject({ kinds: ['meetups'] });
  });
});

// Each campus signs its one-click unsubscribe links with a key of its own (decision 024): a link
// minted for one campus is refused on another's host, even when the id it names is a student there.
describe.skipIf(TEST_ENGINE !== 'postgres')('unsubscribe links per campus', () => {
  let two: TwoCampuses;
  let betaStudent: string;

  beforeAll(async () => {
    two = await openTwoCampuses();
    betaStudent = (await two.studentOf('beta')).id;
  });
  afterAll(async () => {
    await two?.close();
  });

  /** A link stopping the meetups' mails of beta's student, minted as `minter` (null: no campus). */
  const tokenAs = (minter: CampusKey | null) => {
    const sign = () =>
      signUnsubscribeToken(two.t.config.sessionSecret, betaStudent, [], new Date(), {
        kinds: ['meetups'],
      });
    return minter ? runInCampus(two.campusOf(minter), sign) : sign();
  };
  const unsubscribeOnBeta = (token: string) =>
    two.send('beta', 'POST', '/api/alerts/unsubscribe', { payload: { token } });

  it("refuses on beta's host a link minted for alpha or for the default campus", async () => {
    for (const token of [tokenAs('alpha'), tokenAs(null)]) {
      const res = await unsubscribeOnBeta(token);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ message: ALERT_MESSAGES.badUnsubscribe });
      const page = await two.send('beta', 'GET', `/api/alerts/unsubscribe?token=${token}`);
      expect(page.statusCode).toBe(400);
    }
  });

  it("takes on beta's host the link beta minted", async () => {
    const res = await unsubscribeOnBeta(tokenAs('beta'));
    expect(res.statusCode, res.body).toBe(200);
  });
});
