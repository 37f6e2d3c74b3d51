import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionCookieOf, signUpBody } from '../../test/accounts';
import { campusCommand, writeCampusFiles } from '../../test/campuses';
import { TEST_ENGINE } from '../../test/helpers';
import { parseScrape } from '../../test/support/prometheus-text';
import { openSse, type SseStream } from '../../test/support/sse-client';
import { openTwoCampuses, type TwoCampuses } from '../../test/two-campuses';
import { hubOf } from '../features/conversations/stream.routes';
import { currentCampusWork, runInCampus } from './campus-context';
import { DIRECTORY_CHANNEL } from './campus-directory';
import { campusChannel } from './campus-schema';

const GAMMA = 'books.gamma.example';
const GAMMA_AGAIN = 'books.gamma-two.example';
const METRICS_TOKEN = 'campus-directory-live-metrics-token-0123456789';

/**
 * A campus registered while the app servers run (`npm run campus -- add`) is served without a
 * restart: its NOTIFY (or the next reading of the directory) makes its host answer, its jobs run
 * in its context with its recurring ones scheduled, its live-event hub listen. A host changed or a
 * campus no longer registered likewise (decision 024).
 */
describe.skipIf(TEST_ENGINE !== 'postgres')('a campus added while running', () => {
  let two: TwoCampuses;
  let app: FastifyInstance;
  let origin: string;
  const files = writeCampusFiles(['gamma']);
  const ran: (string | undefined)[] = [];
  const streams: SseStream[] = [];

  beforeAll(async () => {
    two = await openTwoCampuses({ env: { METRICS: 'on', METRICS_TOKEN } });
    app = two.app;
    app.jobs.register('test.where', async () => {
      ran.push(currentCampusWork()?.key);
    });
    origin = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await two?.close();
    files.remove();
  });

  const campusName = async (host: string) => {
    const res = await two.send(host, 'GET', '/api/campus');
    const name: unknown = res.statusCode === 200 ? res.json().name : undefined;
    return name ?? res.statusCode;
  };
  /** The job queue gauges of each campus, by its label. */
  const queues = async () => {
    const res = await two.send('alpha', 'GET', '/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const scrape = parseScrape(res.body);
    const byCampus = (name: string) =>
      Object.fromEntries(scrape.find(name).map((s) => [s.labels.campus, s.value]));
    return {
      overdue: byCampus('jobs_overdue'),
      givenUp: byCampus('jobs_given_up'),
      outbox: Object.fromEntries(
        scrape
          .find('mail_outbox_depth', { queue: 'immediate' })
          .map((s) => [s.labels.campus, s.value]),
      ),
    };
  };
  const recurringIn = async (schema: string) =>
    (
      await two.admin.query<{ key: string }>(
        `SELECT key FROM ${schema}.jobs WHERE key LIKE 'every:%' ORDER BY key`,
      )
    ).rows.map((r) => r.key);

  it("labels the job queue and outbox gauges with each campus's key", async () => {
    await two.admin.query(
      `INSERT INTO campus_alpha.jobs (name, run_at) VALUES ('test.where', now() - interval '1 hour'),
         ('test.where', now() - interval '1 hour');
       INSERT INTO campus_beta.jobs (name, run_at, failed_at) VALUES ('test.where', now(), now());
       INSERT INTO public.jobs (name, run_at) VALUES ('test.where', now() - interval '1 hour')`,
    );
    try {
      expect(await queues()).toEqual({
        overdue: { default: 1, alpha: 2, beta: 0 },
        givenUp: { default: 0, alpha: 0, beta: 1 },
        outbox: { default: 0, alpha: 0, beta: 0 },
      });
    } finally {
      await two.admin.query(
        `DELETE FROM campus_alpha.jobs WHERE name = 'test.where';
         DELETE FROM campus_beta.jobs WHERE name = 'test.where';
         DELETE FROM public.jobs WHERE name = 'test.where'`,
      );
    }
  });

  it('serves a campus added with the command on the directory NOTIFY: host, jobs, live events', async () => {
    expect(await campusName(GAMMA)).toBe(421);
    const added = await campusCommand(
      two.url,
      'add',
      'gamma',
      '--host',
      GAMMA,
      '--config',
      files.files.gamma!,
    );
    expect(added.code, added.err).toBe(0);
    expect(added.out).toContain('The running app servers serve it now');
    // No refresh asked and no poll set up: the directory's NOTIFY alone brings it.
    await vi.waitFor(async () => expect(await campusName(GAMMA)).toBe('gamma University'));

    // A student signs up and in on its host, into its own schema.
    const body = signUpBody({ email: `new.student@${files.domains.gamma}` });
    const signUp = await two.send(GAMMA, 'POST', '/api/auth/signup', { payload: body });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const { rows } = await two.admin.query(
      'UPDATE campus_gamma.users SET email_verified_at = now() WHERE email = $1 RETURNING id',
      [body.email],
    );
    expect(rows).toHaveLength(1);
    const signIn = await two.send(GAMMA, 'POST', '/api/auth/signin', {
      payload: { email: body.email, password: body.password },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);

    // Its recurring jobs are scheduled as every other campus's; its jobs run in its context.
    const alphaRecurring = await recurringIn('campus_alpha');
    expect(alphaRecurring.length).toBeGreaterThan(0);
    expect(await recurringIn('campus_gamma')).toEqual(alphaRecurring);
    const gamma = two.installation.routing.campusOfHost(GAMMA)!;
    // The enqueue's NOTIFY names gamma's schema: the runners wake gamma's scope only.
    const heard: string[] = [];
    two.admin.on('notification', (message) => heard.push(message.payload ?? ''));
    await two.admin.query('LISTEN jobs');
    await runInCampus(gamma, () => app.jobs.enqueue('test.where'));
    await vi.waitFor(() => expect(heard).toContain('campus_gamma:test.where'));
    await two.admin.query('UNLISTEN jobs');
    await app.jobs.runDue();
    expect(ran).toEqual(['gamma']);

    // Its live-event hub listens on its own channel; a stream on its host joins it.
    const hub = hubOf(app, 'gamma');
    expect(hub).toBeDefined();
    const stream = await openSse(`${origin}/api/conversations/events`, {
      host: GAMMA,
      cookie: sessionCookieOf(signIn),
    });
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(hub!.streams).toBe(1);
    expect((await queues()).overdue).toEqual({ default: 0, alpha: 0, beta: 0, gamma: 0 });
    const notify = vi.spyOn(hub!, 'notify');
    await two.admin.query('SELECT pg_notify($1, $2)', [
      campusChannel('conversation_events', 'campus_gamma'),
      '0 - -',
    ]);
    await vi.waitFor(() => expect(notify).toHaveBeenCalledWith('0 - -'));
  });

  it('follows a host changed, then a campus no longer registered', async () => {
    await two.admin.query(`UPDATE directory.campuses SET hosts = $1 WHERE key = 'gamma'`, [
      [GAMMA_AGAIN],
    ]);
    await two.admin.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, 'gamma']);
    await vi.waitFor(async () => expect(await campusName(GAMMA_AGAIN)).toBe('gamma University'));
    expect(await campusName(GAMMA)).toBe(421);

    await two.admin.query(`DELETE FROM directory.campuses WHERE key = 'gamma'`);
    await two.admin.query('SELECT pg_notify($1, $2)', [DIRECTORY_CHANNEL, 'gamma']);
    await vi.waitFor(async () => expect(await campusName(GAMMA_AGAIN)).toBe(421));
    // Its hub is gone with its streams; its jobs are no longer looked at.
    expect(hubOf(app, 'gamma')).toBeUndefined();
    await expect(streams[0]!.next(5000)).rejects.toThrow('the stream ended');
    const where = await app.jobs.inEveryScope(async () => currentCampusWork()?.key ?? '');
    expect(where).toEqual(['', 'alpha', 'beta']);
    expect((await queues()).overdue).toEqual({ default: 0, alpha: 0, beta: 0 });
    await two.admin.query(
      `INSERT INTO campus_gamma.jobs (name, run_at) VALUES ('test.where', now())`,
    );
    ran.length = 0;
    await app.jobs.runDue();
    expect(ran).toEqual([]);
  });
});
