import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusCommand } from '../../test/campuses';
import { TEST_ENGINE } from '../../test/helpers';
import { openSse, type SseStream } from '../../test/support/sse-client';
import {
  postgresBinaries,
  startSecondPostgres,
  type SecondPostgres,
} from '../../test/support/second-postgres';
import { CAMPUS_HOSTS, openTwoCampuses, type TwoCampuses } from '../../test/two-campuses';
import { hubOf } from '../features/conversations/stream.routes';
import { moveCampus } from '../ops/campus-move';
import { setCampusState } from './campus-directory';

/**
 * `npm run campus -- move` (docs/operations.md, "Moving a campus to another PostgreSQL server"):
 * alpha moves from the test server to a second PostgreSQL cluster this suite starts on another
 * port; writes before, refused during, and after the move; nothing lost.
 */
const bin = postgresBinaries();
if (TEST_ENGINE === 'postgres' && !bin && process.env.CI === 'true') {
  throw new Error('CI=true but no initdb is installed: the campus move needs a second cluster');
}

describe.skipIf(TEST_ENGINE !== 'postgres' || !bin)(
  'moving a campus to another PostgreSQL server (needs PostgreSQL and initdb)',
  () => {
    let two: TwoCampuses;
    let second: SecondPostgres;
    let target: pg.Client;
    let origin: string;
    let stream: SseStream | undefined;

    beforeAll(async () => {
      [two, second] = await Promise.all([openTwoCampuses(), startSecondPostgres(bin!)]);
      target = new pg.Client({ connectionString: second.url });
      await target.connect();
      origin = await two.app.listen({ port: 0, host: '127.0.0.1' });
    }, 60_000);

    afterAll(async () => {
      stream?.close();
      await target?.end();
      await two?.close();
      second?.stop();
    });

    const listingIdsIn = async (client: pg.Client, schema = 'campus_alpha') =>
      (
        await client.query<{ id: string }>(`SELECT id::text FROM ${schema}.listings ORDER BY id`)
      ).rows.map((r) => r.id);

    const probeJob = async () =>
      (
        await two.admin.query<{ attempts: number; locked: boolean }>(
          `SELECT attempts, locked_by IS NOT NULL AS locked FROM campus_alpha.jobs
            WHERE key = 'campus-move-probe'`,
        )
      ).rows;

    it('refuses every write of a read-only campus with a 503 and Retry-After; reads and the other campus go on', async () => {
      const student = await two.studentOf('alpha');
      const listing = await two.listingOf('alpha', student);
      const beta = await two.studentOf('beta');
      // The directory's NOTIFY reaches the app server: no refresh asked, no restart.
      await setCampusState(two.admin, 'alpha', 'read_only');
      await expect
        .poll(() => two.installation.routing.campusOfHost(CAMPUS_HOSTS.alpha)?.state)
        .toBe('read_only');
      try {
        const refused = await two.send('alpha', 'POST', '/api/listing/create', {
          cookie: student.cookie,
          payload: {},
        });
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('60');
        expect(refused.json()).toMatchObject({
          success: false,
          statusCode: 503,
          message: 'This campus is read-only for maintenance; try again in a minute',
        });
        const read = await two.send('alpha', 'GET', `/api/listing/get/${listing}`);
        expect(read.statusCode, read.body).toBe(200);
        await two.listingOf('beta', beta);
        // Its due jobs wait: the runner does not claim them (they would write to the old server).
        await two.admin.query(
          `INSERT INTO campus_alpha.jobs (name, key, run_at)
           VALUES ('conversations.message-mails', 'campus-move-probe', now() - interval '1 minute')`,
        );
        await two.app.jobs.runDue();
        expect(await probeJob()).toEqual([{ attempts: 0, locked: false }]);
      } finally {
        await setCampusState(two.admin, 'alpha', 'active');
        await two.installation.refresh();
      }
      await two.listingOf('alpha', student);
      await two.app.jobs.runDue();
      expect(await probeJob()).not.toEqual([{ attempts: 0, locked: false }]);
    });

    it('copies alpha to the second server in a short read-only window, switches, and loses nothing', async () => {
      const student = await two.studentOf('alpha');
      for (let i = 0; i < 3; i += 1) await two.listingOf('alpha', student);
      // A buyer's live stream, opened before the move, in a conversation with the student.
      const buyer = await two.studentOf('alpha');
      const started = await two.send('alpha', 'POST', '/api/conversations', {
        cookie: buyer.cookie,
        payload: { listingId: await two.listingOf('alpha', student), text: 'Is it still there?' },
      });
      expect(started.statusCode, started.body).toBe(201);
      const conversationId: string = started.json().conversationId;
      stream = await openSse(`${origin}/api/conversations/events`, {
        host: CAMPUS_HOSTS.alpha,
        cookie: buyer.cookie,
      });
      expect(stream.status).toBe(200);
      const before = await listingIdsIn(two.admin);
      expect(before.length).toBeGreaterThanOrEqual(3);

      let printed = '';
      let during: { status: number; message: string; read: number } | undefined;
      const { windowMs } = await moveCampus({
        homeUrl: two.url,
        key: 'alpha',
        to: second.url,
        settleMs: 0,
        out: (text) => (printed += text),
        // The app server sees the state now (its poll, or the directory's NOTIFY, in production).
        whileMoving: async () => {
          await two.installation.refresh();
          const write = await two.send('alpha', 'POST', '/api/listing/create', {
            cookie: student.cookie,
            payload: {},
          });
          const read = await two.send('alpha', 'GET', `/api/listing/get/${before[0]}`);
          during = {
            status: write.statusCode,
            message: write.json().message,
            read: read.statusCode,
          };
        },
      });
      expect(during).toEqual({
        status: 503,
        message: 'This campus is being moved; try again in a minute',
        read: 200,
      });
      expect(printed).toMatch(/copy \(pg_dump \| pg_restore\): \d+ ms/);
      expect(printed).toMatch(/verify rows and checksums per table: \d+ ms/);
      expect(printed).toContain(`writes were refused for ${windowMs} ms`);

      // Every row written before is on the target, the directory names it, alpha is active again.
      expect(await listingIdsIn(target)).toEqual(before);
      const { rows } = await two.admin.query<{ server: string; state: string; moved: string }>(
        `SELECT server, state, moved_from AS moved FROM directory.campuses WHERE key = 'alpha'`,
      );
      expect(rows[0]).toEqual({ server: second.url, state: 'active', moved: 'home' });

      // The app server opens the target's pools on seeing the switch: writes land there only.
      await two.installation.refresh();
      const after = await two.listingOf('alpha', student);
      expect(await listingIdsIn(target)).toContain(after);
      expect(await listingIdsIn(two.admin)).toEqual(before);
      const read = await two.send('alpha', 'GET', `/api/listing/get/${after}`);
      expect(read.statusCode, read.body).toBe(200);

      // Its kept answers follow the writes there of any app server (a statement on the target,
      // here): the caches LISTEN on the new server from their first look (its version read until
      // then), then trust its fence.
      for (let i = 0; i < 5; i += 1) {
        for (let look = 0; look < 2; look += 1) {
          const kept = await two.send('alpha', 'GET', `/api/listing/get/${after}`);
          expect(kept.statusCode, kept.body).toBe(200);
        }
        await target.query(
          `BEGIN; SET LOCAL search_path TO campus_alpha;
           UPDATE listings SET name = 'Renamed ${i}' WHERE id = '${after}'; COMMIT`,
        );
        const renamed = await two.send('alpha', 'GET', `/api/listing/get/${after}`);
        expect(renamed.json().name).toBe(`Renamed ${i}`);
      }
      const { rows: fences } = await target.query(
        `SELECT 1 FROM pg_stat_activity WHERE query LIKE 'NOTIFY "heard_%'`,
      );
      expect(fences).toHaveLength(1);

      // The stream opened before the move goes on: alpha's hub now LISTENs on the new server, so
      // a message written there reaches it live, unbroken.
      expect(hubOf(two.app, 'alpha')!.streams).toBe(1);
      const said = await two.send(
        'alpha',
        'POST',
        `/api/conversations/${conversationId}/messages`,
        {
          cookie: student.cookie,
          payload: { text: 'Yes, on the new server' },
        },
      );
      expect(said.statusCode, said.body).toBe(201);
      const live = await stream.next();
      expect(live.event).toBe('conversation');
      expect(JSON.parse(live.data)).toMatchObject({
        conversationId,
        body: 'Yes, on the new server',
      });
      const signIn = await two.send('alpha', 'POST', '/api/auth/signin', {
        payload: { email: student.email, password: student.password },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);

      // The old schema stays until drop-old; a second move waits for it.
      const again = await campusCommand(two.url, 'move', 'alpha', '--to', two.url);
      expect(again.code, again.err).toBe(73);
      const dropped = await campusCommand(two.url, 'drop-old', 'alpha');
      expect(dropped.code, dropped.err).toBe(0);
      const { rows: left } = await two.admin.query(
        `SELECT 1 FROM pg_namespace WHERE nspname = 'campus_alpha'`,
      );
      expect(left).toHaveLength(0);
      expect((await campusCommand(two.url, 'drop-old', 'alpha')).code).toBe(65);
    }, 60_000);

    it('refuses a move it cannot do, in a line', async () => {
      const unknown = await campusCommand(two.url, 'move', 'gamma', '--to', second.url);
      expect(unknown).toMatchObject({ code: 65, err: 'no campus "gamma" is registered\n' });
      const same = await campusCommand(two.url, 'move', 'beta', '--to', two.url);
      expect(same).toMatchObject({ code: 65, err: 'campus beta is on that server already\n' });
      const usage = await campusCommand(two.url, 'move', 'beta', '--to', 'not-a-url');
      expect(usage.code).toBe(64);
    });
  },
);
