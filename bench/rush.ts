// The term's first morning (issue 33): STUDENTS students sign in at once through the real route (the
// real argon2id check of a real password hash), and each then runs a short session as the web app
// sends it: ROUNDS rounds of a search, a listing, a course page and another listing, then saves one of
// the listings it opened and creates an alert for a course it looked at; meanwhile SELLERS sellers
// create listings. Prints requests, errors, p50 and p99 per kind, the server's CPU per sign-in
// (under the rush, and alone on a quiet server), and the sign-in wave's rate beside the rate the
// password hash allows on this machine's cores (one check timed alone here, before the rush). `npm run bench` runs it on its PostgreSQL catalogue
// (bench/lib/rush.ts: scenario `rush`). Alone, against a running server and its database, to which it
// adds its students and sellers:
//
//   BASE_URL=http://127.0.0.1:3000 SERVER_PID=1234 DATABASE_URL=postgres://… node --import tsx bench/rush.ts
//   (STUDENTS=200 SELLERS=5 ROUNDS=2; budgets: 0 errors, search, listing and course p99 ≤ 60 ms,
//   the other kinds but sign-in ≤ 250 ms, the sign-in wave ≥ 0.8 × the hash's rate). The
//   server needs RATE_LIMIT_LISTINGS_PER_ACCOUNT raised, as the bench's servers have it: each seller
//   lists far more than the 20 an hour an account may.
//
// The last line of its output is the result as one line of JSON.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { CONDITIONS } from '@campus-books/common/constants';
import { imageUrl } from '@campus-books/common/images';
import { openDatabase } from '../packages/server/src/db/database';
import { images, users } from '../packages/server/src/db/schema';
import { hashPassword, verifyPassword } from '../packages/server/src/features/accounts/password';
import { SeededRandom } from './generate/random';
import { listingDescription, textbookTitle } from './generate/textbooks';
import { BROWSER_HEADERS } from './lib/load';
import {
  signInWave,
  summarizeRush,
  type RushKind,
  type RushOutcome,
  type RushSample,
} from './lib/rush';
import { percentile } from './lib/stats';
import { cpuMsOf } from './lib/server-process';
import { signIn } from './lib/sign-in';

const STUDENTS = Number(process.env.STUDENTS ?? 200);
const SELLERS = Number(process.env.SELLERS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** Sign-ins measured one after another on the quiet server before the rush (the sellers', in turn). */
const QUIET_SIGN_INS = 10;
/** A seller's pause between two listings: each writes a few listings a second, not flat out. */
const SELLER_PAUSE_MS = 200;
const TIMEOUT_MS = 30_000;
/** The product's password rule is 8–128 characters. */
const PASSWORD = 'Rush-pass1';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (see the top of bench/rush.ts)`);
  return value;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

interface Samples {
  listingIds: string[];
  /** Course codes as the course page takes them: 'ECON-101'. */
  courses: string[];
  isbns: string[];
}

/** Adds the students and the sellers (verified, one real password hash computed once) and reads what they will open. */
async function prepare(databaseUrl: string, run: string) {
  const database = await openDatabase({ engine: 'postgres', url: databaseUrl });
  try {
    const { db } = database;
    const passwordHash = await hashPassword(PASSWORD);
    const hashMs = await timeOneCheck(passwordHash);
    const account = (label: string, i: number) => ({
      firstName: 'Rush',
      lastName: `${label} ${i}`,
      username: `rush${label}${i}`,
      email: `rush.${label}${i}.${run}@richmond.edu`,
      passwordHash,
      groupmelink: 'https://groupme.com/contact/1',
      emailVerifiedAt: new Date(),
    });
    const students = await db
      .insert(users)
      .values(Array.from({ length: STUDENTS }, (_, i) => account('student', i)))
      .returning({ email: users.email });
    const sellers = await db
      .insert(users)
      .values(Array.from({ length: SELLERS }, (_, i) => account('seller', i)))
      .returning({ id: users.id, email: users.email });
    // A stored photo of each seller's own (the server accepts only one's own uploads).
    const photos = sellers.map((s) => ({
      id: randomUUID(),
      ownerId: s.id,
      status: 'ready' as const,
      bytes: 100,
      width: 8,
      height: 8,
    }));
    await db.insert(images).values(photos);

    const samples: Samples = {
      listingIds: rowsOf<{ id: string }>(
        await db.execute(
          sql`SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1000`,
        ),
      ).map((r) => r.id),
      courses: rowsOf<{ code: string }>(
        await db.execute(sql`
          SELECT DISTINCT subject || '-' || course_number AS code FROM listings
          WHERE status = 'active' AND subject IS NOT NULL ORDER BY code LIMIT 200`),
      ).map((r) => r.code),
      isbns: rowsOf<{ isbn: string }>(
        await db.execute(sql`
          SELECT DISTINCT isbn FROM listings
          WHERE status = 'active' AND isbn IS NOT NULL ORDER BY isbn LIMIT 200`),
      ).map((r) => r.isbn),
    };
    if (samples.listingIds.length === 0 || samples.courses.length === 0)
      throw new Error('the catalogue has no active listing with a course');
    return {
      students: students.map((s) => s.email),
      sellers: sellers.map((s, i) => ({ email: s.email, photo: imageUrl(photos[i]!.id) })),
      samples,
      hashMs,
    };
  } finally {
    await database.close();
  }
}

/** Checks measured alone to time one (after two unmeasured): their median wall time, ms. */
const HASH_CHECKS = 9;

/**
 * What one password check costs on this machine with nothing else going on: the server's argon2id
 * (the same module and cost), timed here before the rush, one after another.
 */
async function timeOneCheck(passwordHash: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < HASH_CHECKS + 2; i++) {
    const started = performance.now();
    if (!(await verifyPassword(passwordHash, PASSWORD))) throw new Error('the check failed');
    if (i >= 2) times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

async function main() {
  if (!(STUDENTS >= 1 && SELLERS >= 1 && ROUNDS >= 1))
    throw new Error('STUDENTS, SELLERS and ROUNDS: at least 1 each');
  const baseUrl = required('BASE_URL');
  const serverPid = Number(required('SERVER_PID'));
  const run = randomUUID().slice(0, 8);
  const { students, sellers, samples, hashMs } = await prepare(required('DATABASE_URL'), run);

  const recorded: RushSample[] = [];
  const failures: string[] = [];
  const record = (kind: RushKind, started: number, failure: string | null) => {
    recorded.push({ kind, ms: performance.now() - started, ok: failure === null });
    if (failure !== null && failures.length < 10) failures.push(`${kind}: ${failure}`);
  };
  /** One request as the web app sends it (a POST with its Origin), timed to the end of the answer. */
  const send = async (
    kind: RushKind,
    cookie: string,
    path: string,
    post?: { body?: unknown },
  ): Promise<void> => {
    const started = performance.now();
    let failure: string | null = null;
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method: post ? 'POST' : 'GET',
        headers: {
          ...BROWSER_HEADERS,
          cookie,
          ...(post ? { origin: baseUrl, 'sec-fetch-site': 'same-origin' } : {}),
          ...(post?.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: post?.body !== undefined ? JSON.stringify(post.body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await res.text();
      if (!res.ok) failure = `${path} → ${res.status} ${text.slice(0, 200)}`;
    } catch (error) {
      failure = `${path} → ${String(error)}`;
    }
    record(kind, started, failure);
  };
  let lastSignInAnswered = NaN;
  const timedSignIn = async (email: string): Promise<string | null> => {
    const started = performance.now();
    const session = await signIn(
      baseUrl,
      { email, password: PASSWORD },
      AbortSignal.timeout(TIMEOUT_MS),
    ).catch((error: unknown) => ({ error: String(error) }));
    record('sign-in', started, 'cookie' in session ? null : `${email}: ${session.error}`);
    lastSignInAnswered = performance.now();
    return 'cookie' in session ? session.cookie : null;
  };

  // What one sign-in costs the server with nothing else going on: the sellers', one after another,
  // once each first (unmeasured: the first sign-ins load and warm the code), then QUIET_SIGN_INS more.
  const sellerCookies: string[] = [];
  let quietCpuBefore = NaN;
  for (let i = 0; i < sellers.length + QUIET_SIGN_INS; i++) {
    if (i === sellers.length) quietCpuBefore = cpuMsOf(serverPid);
    const seller = sellers[i % sellers.length]!;
    const session = await signIn(baseUrl, { email: seller.email, password: PASSWORD });
    if (!('cookie' in session)) throw new Error(`seller ${seller.email}: ${session.error}`);
    sellerCookies[i % sellers.length] = session.cookie;
  }
  const serverCpuMsPerQuietSignIn = (cpuMsOf(serverPid) - quietCpuBefore) / QUIET_SIGN_INS;

  const studentSession = async (email: string, i: number) => {
    const random = new SeededRandom(0x5e55 + i);
    const cookie = await timedSignIn(email);
    if (cookie === null) return;
    const opened: string[] = [];
    let course = random.pick(samples.courses);
    const openListing = async () => {
      const id = random.pick(samples.listingIds);
      opened.push(id);
      await send('listing', cookie, `/api/listing/get/${id}`);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const term =
        samples.isbns.length > 0 && random.chance(0.25)
          ? random.pick(samples.isbns)
          : textbookTitle(random).subject;
      await send('search', cookie, `/api/listing/get?searchTerm=${encodeURIComponent(term)}`);
      await openListing();
      course = random.pick(samples.courses);
      await send('course', cookie, `/api/course/${course}`);
      await openListing();
    }
    // No body, so no JSON content type (the server rightly refuses an empty JSON body).
    await send('save', cookie, `/api/saved/add/${random.pick(opened)}`, {});
    const [subject, courseNumber] = course.split('-');
    await send('alert', cookie, '/api/alerts/create', { body: { subject, courseNumber } });
  };

  let studentsDone = false;
  const sellerSession = async (cookie: string, photo: string, i: number) => {
    const random = new SeededRandom(0x5e11 + i);
    while (!studentsDone) {
      const [subject, courseNumber] = random.pick(samples.courses).split('-') as [string, string];
      const { title } = textbookTitle(random);
      await send('create-listing', cookie, '/api/listing/create', {
        body: {
          name: title,
          subject,
          courseNumber,
          description: listingDescription(random, subject, courseNumber),
          condition: random.pick(CONDITIONS),
          regularPrice: random.int(10, 120),
          imageUrls: [photo],
        },
      });
      await sleep(SELLER_PAUSE_MS);
    }
  };

  const cpuBefore = cpuMsOf(serverPid);
  const started = performance.now();
  const sellersWriting = Promise.all(
    sellers.map((s, i) => sellerSession(sellerCookies[i]!, s.photo, i)),
  );
  await Promise.all(students.map((email, i) => studentSession(email, i)));
  studentsDone = true;
  await sellersWriting;
  const seconds = (performance.now() - started) / 1000;
  const serverCpuMs = cpuMsOf(serverPid) - cpuBefore;

  const kinds = summarizeRush(recorded);
  const signIns = recorded.filter((s) => s.kind === 'sign-in' && s.ok).length;
  const result: RushOutcome = {
    students: STUDENTS,
    sellers: SELLERS,
    rounds: ROUNDS,
    seconds,
    kinds,
    serverCpuMs,
    serverCpuMsPerSignIn: signIns > 0 ? serverCpuMs / signIns : NaN,
    serverCpuMsPerQuietSignIn,
    failures,
    signInWaveSeconds: (lastSignInAnswered - started) / 1000,
    signIns,
    hashMs,
    cores: availableParallelism(),
  };
  const wave = signInWave(result);
  for (const k of kinds)
    console.log(
      `${k.kind.padEnd(14)} ${String(k.requests).padStart(5)} requests  ${k.errors} errors  p50 ${k.p50.toFixed(1)} ms  p99 ${k.p99.toFixed(1)} ms`,
    );
  console.log(
    `${STUDENTS} students and ${SELLERS} sellers in ${seconds.toFixed(1)} s; server CPU ${serverCpuMs.toFixed(0)} ms, ` +
      `${result.serverCpuMsPerSignIn.toFixed(1)} ms per sign-in (the whole rush ÷ sign-ins), ` +
      `${serverCpuMsPerQuietSignIn.toFixed(1)} ms for a sign-in alone`,
  );
  console.log(
    `sign-in wave: ${signIns} in ${result.signInWaveSeconds.toFixed(2)} s = ${wave.perSecond.toFixed(1)}/s; ` +
      `one check alone ${hashMs.toFixed(1)} ms × ${result.cores} cores allows ${wave.hashAllows.toFixed(1)}/s ` +
      `(×${wave.share.toFixed(2)})`,
  );
  for (const f of failures) console.log(`  failed: ${f}`);
  console.log(JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
