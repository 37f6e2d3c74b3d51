// Conversations under load (issue 28): two app servers on one PostgreSQL, each holding STREAMS idle
// event streams of signed-in students; a buyer sends MESSAGES messages through server A while the
// seller's stream is held by server B. Prints the send p50/p99 (the POST's answer), the delivery
// p50/p99 (from the send to the event on B's stream: LISTEN/NOTIFY across servers) and the server
// memory per idle stream (A's resident memory before and after its streams, divided). The last line
// of its output is the result as one line of JSON.
//
//   npm run build && node --import tsx bench/message-streams.ts
//   (POSTGRES_URL=postgres://… STREAMS=1000 MESSAGES=300; budgets: send p99 ≤ 50 ms, delivery
//   p99 ≤ 250 ms, ≤ 50 KB per idle stream)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { callRoute, callRouteData } from '@campus-books/common/call-route';
import { imageUrl } from '@campus-books/common/images';
import { openDatabase } from '../packages/server/src/db/database';
import { hashPassword } from '../packages/server/src/features/accounts/password';
import { openSse, type SseStream } from '../packages/server/test/support/sse-client';
import { createScratchDatabase } from './lib/databases';
import { canPin, startServer, type RunningServer } from './lib/server-process';
import { percentile } from './lib/stats';

const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const STREAMS = Number(process.env.STREAMS ?? 1000);
const MESSAGES = Number(process.env.MESSAGES ?? 300);
const WATCHERS = 50;
const PASSWORD = 'Bench-Passw0rd';

const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

async function signIn(server: RunningServer, email: string): Promise<string> {
  const res = await callRoute(server.url, 'POST /api/auth/signin', {
    body: { email, password: PASSWORD },
  });
  if (!res.ok) throw new Error(`sign-in ${res.status}: ${res.text}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

async function main() {
  const scratch = await createScratchDatabase(POSTGRES_URL, 'messages');
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  const streams: SseStream[] = [];
  try {
    // The schema: the server's own migrations, run as it opens.
    const database = await openDatabase({ engine: 'postgres', url: scratch.url });
    const hash = await hashPassword(PASSWORD);
    const run = randomUUID().slice(0, 8);
    const newUser = async (label: string) => {
      const email = `${label}.${run}@richmond.edu`;
      const rows = await database.db.execute(sql`
        INSERT INTO users (first_name, last_name, username, email, password_hash, groupmelink, email_verified_at)
        VALUES ('Bench', ${label}, ${`Bench ${label}`}, ${email}, ${hash}, 'https://groupme.com/contact/1', now())
        RETURNING id`);
      return { id: (rows as unknown as { rows: { id: string }[] }).rows[0]!.id, email };
    };
    const seller = await newUser('seller');
    const buyer = await newUser('buyer');
    const watchers = await Promise.all(
      Array.from({ length: WATCHERS }, (_, i) => newUser(`watcher${i}`)),
    );
    const imageId = randomUUID();
    await database.db.execute(sql`
      INSERT INTO images (id, owner_id, status, bytes, width, height)
      VALUES (${imageId}, ${seller.id}, 'ready', 100, 8, 8)`);
    await database.close();

    const env = {
      DATABASE_URL: scratch.url,
      SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
      RATE_LIMIT_SIGNIN_PER_IP: '1000000',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '1000000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '1000000',
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '1000000',
      BOOK_LOOKUP: 'off',
    };
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-messages-'));
      dirs.push(dataDir);
      servers.push(await startServer({ dataDir, env, logLevel: 'warn', pin: canPin() }));
    }
    const [a, b] = servers as [RunningServer, RunningServer];

    const sellerCookie = await signIn(a, seller.email);
    const buyerCookie = await signIn(a, buyer.email);
    const json = { 'content-type': 'application/json' };
    const { _id: listingId } = await callRouteData(a.url, 'POST /api/listing/create', {
      as: { cookie: sellerCookie },
      body: {
        name: 'Principles of Economics',
        courseNumber: '101',
        subject: 'ECON',
        regularPrice: 30,
        condition: 'good',
        imageUrls: [imageUrl(imageId)],
      },
    });
    const { conversationId } = await callRouteData(a.url, 'POST /api/conversations', {
      as: { cookie: buyerCookie },
      body: { listingId, text: 'Is it still available?' },
    });

    // STREAMS idle streams on each server, from WATCHERS students (several tabs each).
    const watcherCookies = await Promise.all(watchers.map((w) => signIn(a, w.email)));
    const rssBefore = rssKb(a.pid);
    for (const server of servers) {
      for (let i = 0; i < STREAMS; i += 50) {
        const batch = Array.from({ length: Math.min(50, STREAMS - i) }, (_, j) =>
          openSse(`${server.url}/api/conversations/events`, {
            cookie: watcherCookies[(i + j) % WATCHERS]!,
          }),
        );
        streams.push(...(await Promise.all(batch)));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfter = rssKb(a.pid);

    // The seller's stream on server B; the buyer sends through server A.
    const sellerStream = await openSse(`${b.url}/api/conversations/events`, {
      cookie: sellerCookie,
    });
    streams.push(sellerStream);
    const sends: number[] = [];
    const deliveries: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const text = `bench message ${i} ${run}`;
      const t0 = performance.now();
      const res = await fetch(`${a.url}/api/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { ...json, cookie: buyerCookie },
        body: JSON.stringify({ text }),
      });
      await res.arrayBuffer();
      sends.push(performance.now() - t0);
      if (res.status !== 201) throw new Error(`send ${res.status}`);
      for (;;) {
        const message = await sellerStream.next(5_000);
        if (message.data.includes(text)) break;
      }
      deliveries.push(performance.now() - t0);
    }
    const result = {
      streamsPerServer: STREAMS,
      messages: MESSAGES,
      sendP50Ms: percentile(sends, 50),
      sendP99Ms: percentile(sends, 99),
      deliveryP50Ms: percentile(deliveries, 50),
      deliveryP99Ms: percentile(deliveries, 99),
      kbPerIdleStream: (rssAfter - rssBefore) / STREAMS,
    };
    console.log(
      `send p50 ${result.sendP50Ms.toFixed(1)} ms, p99 ${result.sendP99Ms.toFixed(1)} ms; ` +
        `delivery across servers p50 ${result.deliveryP50Ms.toFixed(1)} ms, p99 ${result.deliveryP99Ms.toFixed(1)} ms; ` +
        `${result.kbPerIdleStream.toFixed(1)} KB per idle stream (${STREAMS} per server)`,
    );
    console.log(JSON.stringify(result));
  } finally {
    for (const stream of streams) stream.close();
    for (const server of servers) await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await scratch.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
