import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute, callRouteData, dataOf } from '@campus-books/common/call-route';
import type { ConversationEvent } from '@campus-books/common/conversation.schemas';
import { openDatabase, type Database } from '../../src/db/database';
import { openSse, type SseStream } from '../support/sse-client';
import { insertSellerBuyerAndListing } from './deal-rows';
import { HAPROXY } from './load-balancer';
import { freePort, sleep, startServer, waitHealthy, type ServerProcess } from './processes';

const CONFIG = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../ops/haproxy/campus-books.cfg',
);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Passw0rd!';

export interface ConversationStreamsOptions {
  /** Messages sent while the stream's server is down, received on reconnection exactly once. */
  missed: number;
  /** How often each app server sends a heartbeat (STREAM_HEARTBEAT_MS; unset: the default). */
  heartbeatMs?: number;
  /**
   * How long the stream is held with nothing to say before the next message (longer than the
   * recipe's `timeout server`, the heartbeats keep it open); 0: not tried.
   */
  idleMs: number;
}

/**
 * Issue 28's HAProxy test: two app servers on one PostgreSQL behind the project's HAProxy
 * configuration. A browser's event stream held by one server receives a message sent through the
 * other within a second; when the server holding it is killed (-9), the stream reconnects through
 * the balancer with its Last-Event-ID and receives everything it missed exactly once, then the
 * live events. Short form: conversation-streams.quick.ts (npm test); full form:
 * conversation-streams.reliability.ts (npm run test:reliability).
 */
export function describeConversationStreams(options: ConversationStreamsOptions) {
  describe('event streams behind HAProxy (ops/haproxy/campus-books.cfg)', () => {
    let dbName: string;
    let database: Database;
    let haproxy: ChildProcess;
    let base: string;
    const servers: ServerProcess[] = [];
    const dataDirs: string[] = [];
    let buyerCookie: string;
    let sellerCookie: string;
    let conversationId: string;

    const signIn = async (email: string) => {
      const res = await fetch(`${base}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
      return res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
    };
    const say = async (server: ServerProcess, text: string) => {
      const res = await callRoute(server.url, 'POST /api/conversations/:id/messages', {
        as: { cookie: sellerCookie },
        params: { id: conversationId },
        body: { text },
      });
      expect(res.status).toBe(201);
      return dataOf(res).event;
    };
    const bodyOf = async (stream: SseStream) =>
      (JSON.parse((await stream.next(15_000)).data) as ConversationEvent).body;

    beforeAll(async () => {
      dbName = `cb_sse_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const url = new URL(ADMIN_URL);
      url.pathname = `/${dbName}`;
      database = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 3 });
      const env = {
        DATABASE_URL: url.toString(),
        DATABASE_POOL_SIZE: '6',
        SESSION_SECRET: 'the-secret-every-app-server-of-this-test-shares',
        PUBLIC_URL: 'http://127.0.0.1',
        ...(options.heartbeatMs ? { STREAM_HEARTBEAT_MS: String(options.heartbeatMs) } : {}),
        RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
      };
      const ports = [await freePort(), await freePort()];
      for (const [i, port] of ports.entries()) {
        dataDirs.push(mkdtempSync(path.join(tmpdir(), `cb-sse-${i}-`)));
        servers.push(startServer({ ...env, DATA_DIR: dataDirs[i]! }, port));
      }
      await Promise.all(servers.map((s) => waitHealthy(s)));
      const frontPort = await freePort();
      base = `http://127.0.0.1:${frontPort}`;
      haproxy = spawn(HAPROXY, ['-db', '-f', CONFIG], {
        env: {
          ...process.env,
          CB_BIND: `127.0.0.1:${frontPort}`,
          CB_APP1: `127.0.0.1:${ports[0]}`,
          CB_APP2: `127.0.0.1:${ports[1]}`,
          // The configuration names three servers; the second stands in twice.
          CB_APP3: `127.0.0.1:${ports[1]}`,
          CB_CHECK_INTER: '500ms',
        },
        stdio: 'ignore',
      });
      for (let tries = 0; ; tries += 1) {
        const up = await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (tries > 100) throw new Error('HAProxy did not start');
        await sleep(100);
      }
      await sleep(1500); // until HAProxy's checks see both servers up (rise 2 × 500 ms)

      const { seller, buyer, listing } = await insertSellerBuyerAndListing(
        database,
        'Stream',
        PASSWORD,
      );
      sellerCookie = await signIn(seller!.email);
      buyerCookie = await signIn(buyer!.email);
      const sent = await callRouteData(base, 'POST /api/conversations', {
        as: { cookie: buyerCookie },
        body: { listingId: listing!.id, text: 'Is it available?' },
      });
      conversationId = sent.conversationId;
    }, 180_000);

    afterAll(async () => {
      haproxy?.kill('SIGTERM');
      for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
      await database?.close();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }, 120_000);

    it('delivers across servers within a second, and resumes after kill -9 with everything missed exactly once', async () => {
      const stream = await openSse(`${base}/api/conversations/events`, { cookie: buyerCookie });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.headers.get('content-encoding')).toBeNull();
      const holder = stream.headers.get('x-served-by') === 'app1' ? servers[0]! : servers[1]!;
      const other = holder === servers[0] ? servers[1]! : servers[0]!;

      // The message is committed when its answer comes; from then, a second to reach the stream.
      const sentAt = Date.now();
      await say(other, 'through the other server');
      const answeredAt = Date.now();
      const first = await stream.next(1000);
      expect((JSON.parse(first.data) as ConversationEvent).body).toBe('through the other server');
      console.log(
        `\n[event streams] across servers behind HAProxy: delivered ${Date.now() - sentAt} ms after the send (${Date.now() - answeredAt} ms after its answer)`,
      );

      if (options.idleMs > 0) {
        // Quiet for longer than the balancer's time-outs: the heartbeats keep the stream open.
        const comments = stream.comments();
        await sleep(options.idleMs);
        expect(stream.comments()).toBeGreaterThan(comments);
        await say(other, 'after a quiet while');
        expect(await bodyOf(stream)).toBe('after a quiet while');
      }

      await say(other, 'one more');
      const lastId = (await stream.next(15_000)).id!;

      holder.child.kill('SIGKILL');
      await holder.exited;
      stream.close();
      const missed = Array.from({ length: options.missed }, (_, i) => `missed ${i + 1}`);
      for (const text of missed) await say(other, text);
      const resumed = await openSse(`${base}/api/conversations/events`, {
        cookie: buyerCookie,
        'last-event-id': lastId,
      });
      expect(resumed.status).toBe(200);
      const received: (string | null)[] = [];
      for (let i = 0; i < missed.length; i += 1) received.push(await bodyOf(resumed));
      expect(received).toEqual(missed);
      await say(other, 'live');
      // Nothing missed is sent twice: the next event is the live one.
      expect(await bodyOf(resumed)).toBe('live');
      resumed.close();
    });
  });
}
