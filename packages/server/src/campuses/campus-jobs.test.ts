import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { campusDomainOf } from '../../test/campuses';
import { TEST_ENGINE } from '../../test/helpers';
import { openSse, type SseStream } from '../../test/support/sse-client';
import {
  CAMPUS_HOSTS,
  CAMPUS_KEYS,
  openTwoCampuses,
  type CampusKey,
  type CampusStudent,
  type TwoCampuses,
} from '../../test/two-campuses';
import { rowsOf } from '../db/rows';
import { DIGEST_JOB } from '../features/alerts/alerts.delivery';
import { hubOf } from '../features/conversations/stream.routes';
import { currentCampusWork, runInCampus } from './campus-context';

/** Each campus in its own zone: 07:00 (the digest's hour) falls at different instants. */
const ZONES = { alpha: 'America/New_York', beta: 'Asia/Tokyo' } as const;

/** What a probe job saw when it ran. */
interface ProbeRun {
  campus: string | undefined;
  zone: string;
  changed: number;
}

// Jobs and live events per campus (decision 024), on PostgreSQL: one installation, two campuses,
// one job runner and one LISTEN connection serving both.
describe.skipIf(TEST_ENGINE !== 'postgres')('jobs and live events per campus', () => {
  let two: TwoCampuses;
  let app: FastifyInstance;
  let admin: pg.Client;
  let origin: string;
  let clock = new Date('2026-03-10T12:00:00Z');
  const probes: ProbeRun[] = [];
  const sellers = {} as Record<CampusKey, CampusStudent>;
  const buyers = {} as Record<CampusKey, CampusStudent>;
  const conversations = {} as Record<CampusKey, { id: string; messageId: number }>;
  const open: SseStream[] = [];

  const campusOf = (key: CampusKey) => two.campusOf(key);
  const send: TwoCampuses['send'] = (...args) => two.send(...args);
  const studentOf = (key: CampusKey, name: string) =>
    two.studentOf(key, { email: `${name}.${key}@${campusDomainOf(key)}` });

  async function conversationOf(key: CampusKey): Promise<{ id: string; messageId: number }> {
    const listingId = await two.listingOf(key, sellers[key], { name: `${key} Organic Chemistry` });
    const started = await send(key, 'POST', '/api/conversations', {
      cookie: buyers[key].cookie,
      payload: { listingId, text: `Hello from ${key}` },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { conversationId, event } = started.json<{
      conversationId: string;
      event: { id: number };
    }>();
    return { id: conversationId, messageId: event.id };
  }

  /** A stream of the student's on the campus's host. */
  async function streamOf(key: CampusKey, student: CampusStudent): Promise<SseStream> {
    const stream = await openSse(`${origin}/api/conversations/events`, {
      host: CAMPUS_HOSTS[key],
      cookie: student.cookie,
    });
    expect(stream.status).toBe(200);
    open.push(stream);
    return stream;
  }

  /** The pending slot of a recurring job in a schema. */
  async function slotOf(schema: string, job: string): Promise<string> {
    const { rows } = await admin.query<{ run_at: Date }>(
      `SELECT run_at FROM ${schema}.jobs WHERE key = $1`,
      [`every:${job}`],
    );
    expect(rows, `${schema} ${job}`).toHaveLength(1);
    return rows[0]!.run_at.toISOString();
  }

  beforeAll(async () => {
    two = await openTwoCampuses({
      campusFields: { alpha: { timeZone: ZONES.alpha }, beta: { timeZone: ZONES.beta } },
      now: () => clock,
    });
    ({ app, admin } = two);
    // A job that says where it ran, and changes its student's row where it runs.
    app.jobs.register<{ userId: string }>('test.probe', async ({ payload }) => {
      const changed = await rowsOf(
        app.database.db,
        sql`UPDATE users SET first_name = 'Probed' WHERE id = ${payload.userId} RETURNING id`,
      );
      probes.push({
        campus: currentCampusWork()?.key,
        zone: activeCampus().timeZone,
        changed: changed.length,
      });
    });
    origin = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const key of CAMPUS_KEYS) {
      sellers[key] = await studentOf(key, 'seller');
      buyers[key] = await studentOf(key, 'buyer');
      conversations[key] = await conversationOf(key);
    }
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await two?.close();
  });

  it("runs a job enqueued as a campus in that campus's context, on its schema only", async () => {
    for (const [key, other] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ] as const) {
      probes.length = 0;
      const student = buyers[key].id;
      await runInCampus(campusOf(key), () => app.jobs.enqueue('test.probe', { userId: student }));
      const { rows: pending } = await admin.query(
        `SELECT 'alpha' AS campus FROM campus_alpha.jobs WHERE name = 'test.probe' UNION ALL
         SELECT 'beta' FROM campus_beta.jobs WHERE name = 'test.probe' UNION ALL
         SELECT 'public' FROM public.jobs WHERE name = 'test.probe'`,
      );
      expect(pending).toEqual([{ campus: key }]);

      // The runner is asked outside any campus (as its poll loop is) and finds the job in its schema.
      expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
      expect(probes).toEqual([{ campus: key, zone: ZONES[key], changed: 1 }]);
      const { rows: names } = await admin.query(
        `SELECT first_name FROM campus_${key}.users WHERE id = $1 UNION ALL
         SELECT first_name FROM campus_${other}.users WHERE id = $2`,
        [student, buyers[other].id],
      );
      expect(names.map((r: { first_name: string }) => r.first_name)).toEqual([
        'Probed',
        expect.not.stringMatching(/^Probed$/),
      ]);
      const { rows: left } = await admin.query(
        `SELECT 1 FROM campus_${key}.jobs WHERE name = 'test.probe'`,
      );
      expect(left).toEqual([]);
      // Put back for the next campus's turn.
      await admin.query(`UPDATE campus_${key}.users SET first_name = 'Buyer' WHERE id = $1`, [
        student,
      ]);
    }
  });

  it("schedules the daily digest at each campus's own hour and runs it then", async () => {
    // 07:00 in New York (EDT since 8 March) and in Tokyo, from 12:00 UTC on 10 March.
    expect(await slotOf('campus_alpha', DIGEST_JOB)).toBe('2026-03-11T11:00:00.000Z');
    expect(await slotOf('campus_beta', DIGEST_JOB)).toBe('2026-03-10T22:00:00.000Z');

    clock = new Date('2026-03-10T22:00:00Z');
    await app.jobs.runDue();
    // Tokyo's morning came: beta's digest ran and waits for its next morning; alpha's still waits.
    expect(await slotOf('campus_beta', DIGEST_JOB)).toBe('2026-03-11T22:00:00.000Z');
    expect(await slotOf('campus_alpha', DIGEST_JOB)).toBe('2026-03-11T11:00:00.000Z');

    clock = new Date('2026-03-11T11:00:00Z');
    await app.jobs.runDue();
    expect(await slotOf('campus_alpha', DIGEST_JOB)).toBe('2026-03-12T11:00:00.000Z');
    expect(await slotOf('campus_beta', DIGEST_JOB)).toBe('2026-03-11T22:00:00.000Z');
  });

  it("sweeps each campus's upload state in its own folder of the store, by its own rows", async () => {
    const ids = {} as Record<CampusKey, string>;
    for (const key of CAMPUS_KEYS) {
      const { rows } = await admin.query<{ id: string }>(
        `SELECT id FROM campus_${key}.images LIMIT 1`,
      );
      ids[key] = rows[0]!.id;
    }
    const orphan = '00000000-0000-4000-8000-0000000000aa';
    const inCampus = <T>(key: CampusKey, work: () => Promise<T>) =>
      runInCampus(campusOf(key), work);
    // Each campus holds state of its own image, of the other campus's image and of no image.
    for (const key of CAMPUS_KEYS) {
      for (const id of [ids.alpha, ids.beta, orphan]) {
        await inCampus(key, () => app.storage.put(`tus/${id}/info`, Buffer.from('{}')));
      }
    }
    // Past the hourly sweep's slot: it runs as the default campus and as each campus.
    clock = new Date(clock.getTime() + 2 * 60 * 60_000);
    await app.jobs.runDue();
    for (const key of CAMPUS_KEYS) {
      const left = (await inCampus(key, () => app.storage.list('tus/'))).map((o) => o.key);
      // The other campus's image is no image of this campus's: its state here was an orphan.
      expect(left).toEqual([`tus/${ids[key]}/info`]);
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM campus_${key}.images WHERE id = $1`,
        [ids[key]],
      );
      expect(rows[0]!.n).toBe(1);
    }
  });

  it("sends a campus's read marks to its own streams only", async () => {
    const toAlpha = await streamOf('alpha', buyers.alpha);
    const toBeta = await streamOf('beta', buyers.beta);
    const betaSeen = vi.spyOn(hubOf(app, 'beta')!, 'seen');
    const homeSeen = vi.spyOn(hubOf(app)!, 'seen');
    try {
      const read = await send(
        'alpha',
        'POST',
        `/api/conversations/${conversations.alpha.id}/read`,
        {
          cookie: sellers.alpha.cookie,
          payload: { upTo: conversations.alpha.messageId },
        },
      );
      expect(read.statusCode, read.body).toBe(200);
      const seen = await toAlpha.next();
      expect(seen.event).toBe('seen');
      expect(JSON.parse(seen.data)).toMatchObject({
        conversationId: conversations.alpha.id,
        seenUpTo: conversations.alpha.messageId,
      });

      // Beta's own mark is the marker: alpha's would have reached beta's hub before it.
      const marker = await send(
        'beta',
        'POST',
        `/api/conversations/${conversations.beta.id}/read`,
        {
          cookie: sellers.beta.cookie,
          payload: { upTo: conversations.beta.messageId },
        },
      );
      expect(marker.statusCode, marker.body).toBe(200);
      const betaMark = await toBeta.next();
      expect(betaMark.event).toBe('seen');
      expect(JSON.parse(betaMark.data)).toMatchObject({ conversationId: conversations.beta.id });
      expect(betaSeen.mock.calls.map(([payload]) => payload.split(' ')[0])).toEqual([
        conversations.beta.id,
      ]);
      expect(homeSeen).not.toHaveBeenCalled();
    } finally {
      betaSeen.mockRestore();
      homeSeen.mockRestore();
    }
  });

  it("sends a campus's messages live to its own streams only", async () => {
    const toAlpha = await streamOf('alpha', buyers.alpha);
    const toBeta = await streamOf('beta', buyers.beta);
    const betaNotify = vi.spyOn(hubOf(app, 'beta')!, 'notify');
    const homeNotify = vi.spyOn(hubOf(app)!, 'notify');
    try {
      const said = await send(
        'alpha',
        'POST',
        `/api/conversations/${conversations.alpha.id}/messages`,
        {
          cookie: sellers.alpha.cookie,
          payload: { text: 'Still for sale, alpha' },
        },
      );
      expect(said.statusCode, said.body).toBe(201);
      const live = await toAlpha.next();
      expect(live.event).toBe('conversation');
      expect(JSON.parse(live.data)).toMatchObject({
        conversationId: conversations.alpha.id,
        body: 'Still for sale, alpha',
      });

      const marker = await send(
        'beta',
        'POST',
        `/api/conversations/${conversations.beta.id}/messages`,
        {
          cookie: sellers.beta.cookie,
          payload: { text: 'Marker from beta' },
        },
      );
      expect(marker.statusCode, marker.body).toBe(201);
      const first = await toBeta.next();
      expect(first.event).toBe('conversation');
      expect(JSON.parse(first.data)).toMatchObject({
        conversationId: conversations.beta.id,
        body: 'Marker from beta',
      });
      // Beta's hub heard beta's event only; the default campus's hub heard nothing.
      expect(betaNotify).toHaveBeenCalledTimes(1);
      expect(homeNotify).not.toHaveBeenCalled();
    } finally {
      betaNotify.mockRestore();
      homeNotify.mockRestore();
    }
  });
});
