// Creating a listing that matches 1,000 alerts (issue 15): the listing's answer time must not grow
// with the number of alerts (the matching is a job, off the request path), and every mail must be
// queued and sent within 60 s. `npm run bench` runs it once per engine (bench/lib/fanout.ts: scenario
// `alerts-fanout`) and checks its budgets. Alone: `node --import tsx bench/alerts-fanout.ts` (PGlite
// in memory), or with `DATABASE_URL=postgres://…` for PostgreSQL (an empty database it may fill and
// leave). The last line of its output is the result as one line of JSON.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { imageUrl } from '@campus-books/common/images';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config/config';
import { openDatabase } from '../packages/server/src/db/database';

const ALERTS = Number(process.env.ALERTS ?? 1000);
const SAMPLES = Number(process.env.SAMPLES ?? 15);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-alerts-'));
  const url = process.env.DATABASE_URL;
  // The configuration first: it sets the campus, which migrating the database reads.
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOK_LOOKUP: 'off',
    RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000000',
  });
  const database = await openDatabase(
    url ? { engine: 'postgres', url } : { engine: 'pglite', lock: false },
  );
  const app = await buildApp({ config, database, jobs: { poll: false } });
  await app.ready();
  const db = database.db;
  const run = randomUUID().slice(0, 8);

  const newUser = async (label: string) => {
    const rows = await db.execute(sql`
      INSERT INTO users (first_name, last_name, username, email, password_hash, groupmelink, email_verified_at)
      VALUES ('Bench', ${label}, ${`Bench ${label}`}, ${`${label}.${run}@richmond.edu`}, 'x',
        'https://groupme.com/contact/1', now())
      RETURNING id`);
    return (rows as unknown as { rows: { id: string }[] }).rows[0]!.id;
  };
  const sellerId = await newUser('seller');
  let cookie = '';
  const reply = {
    setCookie(name: string, value: string) {
      cookie = `${name}=${value}`;
      return reply;
    },
  };
  await app.sessions.start(reply as never, sellerId);
  const imageId = randomUUID();
  await db.execute(sql`
    INSERT INTO images (id, owner_id, status, bytes, width, height)
    VALUES (${imageId}, ${sellerId}, 'ready', 100, 8, 8)`);

  const createListing = async () => {
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/listing/create',
      headers: { cookie },
      payload: {
        name: 'Principles of Economics',
        courseNumber: '101',
        subject: 'ECON',
        regularPrice: 30,
        condition: 'good',
        imageUrls: [imageUrl(imageId)],
      },
    });
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
    return performance.now() - started;
  };

  // Warm-up (the first creates compile the code paths and fill the caches: on PGlite they take
  // twice as long), then the answer time with no alert at all.
  for (let i = 0; i < 10; i += 1) await createListing();
  await app.jobs.runDue();
  const without: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) without.push(await createListing());
  await app.jobs.runDue();

  // ALERTS students, each with an alert that every following listing matches.
  await db.execute(sql`
    WITH buyers AS (
      INSERT INTO users (first_name, last_name, username, email, password_hash, groupmelink, email_verified_at)
      SELECT 'Bench', 'Buyer' || n, 'Bench Buyer ' || n, 'buyer' || n || '.' || ${run} || '@richmond.edu', 'x',
        'https://groupme.com/contact/1', now()
      FROM generate_series(1, ${ALERTS}) AS n
      RETURNING id)
    INSERT INTO alerts (user_id, subject, course_number, max_price)
    SELECT id, 'ECON', '101', 50 FROM buyers`);

  const withAlerts: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) withAlerts.push(await createListing());

  // Every listing just made matches ALERTS alerts: the jobs match them and send one mail per student.
  const outbox = path.join(dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true });
  const before = readdirSync(outbox).length;
  const started = performance.now();
  await app.jobs.runDue();
  await app.mailer.flush();
  const fanOutSeconds = (performance.now() - started) / 1000;
  const pending = await db.execute(
    sql`SELECT count(*)::int AS n FROM alert_deliveries WHERE sent_at IS NULL`,
  );
  const mails = readdirSync(outbox).length - before;

  const result = {
    engine: database.engine,
    alerts: ALERTS,
    samples: SAMPLES,
    createMedianMsWithoutAlerts: Number(median(without).toFixed(1)),
    createMedianMsWith1000MatchingAlerts: Number(median(withAlerts).toFixed(1)),
    matchedListings: SAMPLES,
    mailsSent: mails,
    deliveriesLeft: (pending as unknown as { rows: { n: number }[] }).rows[0]!.n,
    fanOutSeconds: Number(fanOutSeconds.toFixed(2)),
  };
  console.log(JSON.stringify(result));
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  // A student may get two mails when a sender had mailed them before the last listings were matched
  // (each listing still once); every student gets at least one, and nothing is left in the outbox.
  const ok = result.deliveriesLeft === 0 && mails >= ALERTS && fanOutSeconds < 60;
  process.exit(ok ? 0 : 1);
}

void main();
