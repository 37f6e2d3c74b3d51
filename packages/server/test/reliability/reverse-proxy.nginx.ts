import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '@campus-books/common/constants';
import type { SentEvent } from '@campus-books/common/conversation.schemas';
import { openDatabase, type Database } from '../../src/db/database';
import { images, users } from '../../src/db/schema';
import { hashPassword } from '../../src/features/accounts/password';
import { startTestS3Server, type TestS3Server } from '../support/s3-test-server';
import { insertSellerBuyerAndListing } from './deal-rows';
import {
  makeSelfSignedCertificate,
  NGINX,
  NGINX_TEMPLATE,
  nginxInstalled,
  sendHttps,
  startNginx,
  type Answer,
  type HttpsOptions,
} from './nginx';
import { freePort, startServer, waitHealthy, type ServerProcess } from './processes';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SIGNIN_PER_IP = 2;
const PASSWORD = 'Passw0rd!';

export function describeReverseProxy() {
  describe('nginx over HTTPS in front of two app servers (ops/nginx/campus-books.conf)', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'cb-nginx-'));
    let ca: Buffer;
    let dbName: string;
    let database: Database;
    let s3: TestS3Server;
    const servers: ServerProcess[] = [];
    let nginx: Awaited<ReturnType<typeof startNginx>>;
    let email: string;
    let cookie: string;

    /** One HTTPS request through nginx, trusting the test's certificate only. */
    const send = (url: string, options: HttpsOptions = {}) =>
      sendHttps(nginx.base, ca, url, options);
    const json = (body: Record<string, unknown>) => ({
      headers: { 'content-type': 'application/json', origin: nginx.base },
      body: JSON.stringify(body),
    });

    beforeAll(async () => {
      ca = makeSelfSignedCertificate(work);

      dbName = `cb_nginx_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const url = new URL(ADMIN_URL);
      url.pathname = `/${dbName}`;
      database = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 3 });
      s3 = await startTestS3Server();

      const ports = [await freePort(), await freePort()];
      const httpsPort = await freePort();
      // nginx listens on the port chosen here: PUBLIC_URL names it before the servers start.
      const publicUrl = `https://127.0.0.1:${httpsPort}`;
      const env = {
        DATABASE_URL: url.toString(),
        DATABASE_POOL_SIZE: '6',
        ...s3.env,
        SESSION_SECRET: 'the-secret-both-app-servers-of-this-test-share',
        PUBLIC_URL: publicUrl,
        TRUST_PROXY: 'true',
        // Heartbeats every half second: the stream test sees them arrive one by one.
        STREAM_HEARTBEAT_MS: '500',
        RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
      };
      for (const [i, port] of ports.entries()) {
        const dataDir = path.join(work, `app${i}`);
        mkdirSync(dataDir);
        servers.push(
          startServer(
            { ...env, DATA_DIR: dataDir, RATE_LIMIT_SIGNIN_PER_IP: String(SIGNIN_PER_IP) },
            port,
          ),
        );
      }
      await Promise.all(servers.map((s) => waitHealthy(s)));
      nginx = await startNginx(
        path.join(work, 'nginx'),
        ports.map((p) => `127.0.0.1:${p}`),
        httpsPort,
      );

      email = `proxy.${randomUUID().slice(0, 8)}@richmond.edu`;
      await database.db.insert(users).values({
        firstName: 'Proxy',
        lastName: 'Student',
        username: 'Proxy Student',
        email,
        passwordHash: await hashPassword(PASSWORD),
        groupmelink: 'https://groupme.com/contact/1',
        emailVerifiedAt: new Date(),
      });
    }, 120_000);

    afterAll(async () => {
      nginx?.stop();
      for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
      await database?.close();
      await s3?.close();
      if (dbName) {
        const admin = new pg.Client({ connectionString: ADMIN_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
      rmSync(work, { recursive: true, force: true });
    }, 60_000);

    it('redirects HTTP to HTTPS; answers over TLS with HSTS once; signs in with a Secure cookie', async () => {
      const plain = await new Promise<Answer>((resolve, reject) =>
        request(`http://127.0.0.1:${nginx.httpPort}/search?x=1`, (res) => {
          res.resume();
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.alloc(0) });
        })
          .on('error', reject)
          .end(),
      );
      expect(plain.status).toBe(301);
      expect(plain.headers.location).toBe(`https://127.0.0.1:${nginx.httpPort}/search?x=1`);

      const health = await send('/api/health');
      expect(health.status).toBe(200);
      expect(health.headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );

      const signIn = await send('/api/auth/signin', {
        method: 'POST',
        ...json({ email, password: PASSWORD }),
      });
      expect(signIn.status, signIn.body.toString()).toBe(200);
      const setCookie = signIn.headers['set-cookie']!.join('\n');
      expect(setCookie).toMatch(/; Secure/i);
      expect(setCookie).toMatch(/; HttpOnly/i);
      cookie = signIn.headers['set-cookie']!.map((c) => c.split(';')[0]).join('; ');
      const session = await send('/api/auth/session', { headers: { cookie } });
      expect(JSON.parse(session.body.toString()).user.email).toBe(email);
    });

    it("counts attempts by the client's address, never by a forwarded header it sent", async () => {
      const failSignIn = (from: string, forged: string) =>
        send('/api/auth/signin', {
          method: 'POST',
          localAddress: from,
          headers: { ...json({}).headers, 'x-forwarded-for': forged },
          body: JSON.stringify({
            email: `nobody.${randomUUID()}@richmond.edu`,
            password: 'Wrong1!x',
          }),
        });
      // One client, a new forged address each time: still one address to the app.
      for (let i = 0; i < SIGNIN_PER_IP; i += 1) {
        expect((await failSignIn('127.0.0.5', `203.0.113.${i}`)).status).toBe(401);
      }
      const limited = await failSignIn('127.0.0.5', '203.0.113.99');
      expect(limited.status).toBe(429);
      expect(JSON.parse(limited.body.toString())).toMatchObject({ challengeRequired: true });
      // Another client (another address, the same nginx) is not limited: the app reads the
      // address nginx saw, not nginx's own.
      expect((await failSignIn('127.0.0.6', '203.0.113.5')).status).toBe(401);
    });

    it('compresses once (the app), refuses bodies over 2 MB, hides the operators’ routes', async () => {
      const docs = await send('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
      expect(docs.status).toBe(200);
      expect(docs.headers['content-encoding']).toBe('gzip');
      const document = JSON.parse(gunzipSync(docs.body).toString());
      expect(document.openapi).toMatch(/^3\./);

      const huge = await send('/api/listing/create', {
        method: 'POST',
        headers: { ...json({}).headers, cookie },
        body: Buffer.alloc(3 * 1024 * 1024, 0x20),
      });
      expect(huge.status).toBe(413);
      expect((await send('/metrics')).status).toBe(404);
      expect((await send('/api/admin/backup', { method: 'POST' })).status).toBe(404);
    });

    it('takes a 2 MB tus upload in 256 KB chunks over HTTPS', async () => {
      const side = 830;
      const png = await sharp(randomBytes(side * side * 3), {
        raw: { width: side, height: side, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(png.length).toBeGreaterThan(1.9 * 1024 * 1024);
      const tus = { 'tus-resumable': '1.0.0', cookie, origin: nginx.base };
      const created = await send('/api/uploads', {
        method: 'POST',
        headers: {
          ...tus,
          'upload-length': String(png.length),
          'upload-metadata': `filename ${Buffer.from('noise.png').toString('base64')},filetype ${Buffer.from('image/png').toString('base64')}`,
        },
      });
      expect(created.status, created.body.toString()).toBe(201);
      // A path on the same (public) origin: the chunks follow it through nginx.
      const location = created.headers.location!;
      expect(location).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
      for (let offset = 0; offset < png.length; offset += UPLOAD_CHUNK_BYTES) {
        const res = await send(location, {
          method: 'PATCH',
          headers: {
            ...tus,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: png.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
        });
        expect(res.status, res.body.toString()).toBeLessThan(300);
      }
      const [row] = await database.db
        .select()
        .from(images)
        .where(eq(images.id, location.split('/').at(-1)!));
      expect(row).toMatchObject({ status: 'ready', width: side, height: side, bytes: png.length });
    });

    it('carries a student’s event stream from the real app: the other participant’s message arrives within a second, unbuffered', async () => {
      // The recipe itself: the stream's location turns nginx's buffering off and waits longer than
      // a few of the app's heartbeats (25 s) before it calls a quiet upstream hung.
      const recipe = readFileSync(NGINX_TEMPLATE, 'utf8');
      const streamLocation = [...recipe.matchAll(/location ~ (\S+) \{([^}]*)\}/g)].find(([, re]) =>
        new RegExp(re!).test('/api/conversations/events'),
      );
      expect(streamLocation?.[2]).toMatch(/proxy_buffering off;/);
      const readTimeout = /proxy_read_timeout (\d+)(s|m|h);/.exec(streamLocation?.[2] ?? '');
      const readTimeoutS =
        Number(readTimeout?.[1]) * { s: 1, m: 60, h: 3600 }[readTimeout?.[2] as 's'];
      expect(readTimeoutS).toBeGreaterThanOrEqual(2 * 25);

      const { seller, buyer, listing } = await insertSellerBuyerAndListing(
        database,
        'Proxied',
        PASSWORD,
      );
      // Each from an address of its own: this test's sign-in limit is two per address.
      const signIn = async (who: { email: string }, from: string) => {
        const res = await send('/api/auth/signin', {
          method: 'POST',
          localAddress: from,
          ...json({ email: who.email, password: PASSWORD }),
        });
        expect(res.status, res.body.toString()).toBe(200);
        return res.headers['set-cookie']!.map((c) => c.split(';')[0]).join('; ');
      };
      const sellerCookie = await signIn(seller!, '127.0.0.7');
      const buyerCookie = await signIn(buyer!, '127.0.0.8');
      const opened = await send('/api/conversations', {
        method: 'POST',
        headers: { ...json({}).headers, cookie: buyerCookie },
        body: JSON.stringify({ listingId: listing!.id, text: 'Is it still available?' }),
      });
      expect(opened.status, opened.body.toString()).toBe(201);
      const { conversationId } = JSON.parse(opened.body.toString()) as SentEvent;

      // The seller's stream, through nginx to whichever app server it picks. Each chunk is kept
      // with the time it arrived.
      const chunks: { at: number; text: string }[] = [];
      let waiter: (() => void) | null = null;
      let streamHeaders: IncomingHttpHeaders = {};
      let ended = false;
      const stream = httpsRequest(
        `${nginx.base}/api/conversations/events`,
        {
          ca,
          agent: false,
          headers: {
            accept: 'text/event-stream',
            'accept-encoding': 'gzip, br',
            cookie: sellerCookie,
          },
        },
        (res) => {
          streamHeaders = res.headers;
          res.setEncoding('utf8');
          res.on('data', (text: string) => {
            chunks.push({ at: Date.now(), text });
            waiter?.();
          });
          res.on('end', () => (ended = true));
        },
      );
      // Ended by the test (destroy): not an error of the stream.
      stream.on('error', () => undefined);
      stream.end();
      const received = () => chunks.map((c) => c.text).join('');
      const until = async (check: () => boolean, timeoutMs: number, what: string) => {
        const deadline = Date.now() + timeoutMs;
        while (!check()) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`${what}: not within ${timeoutMs} ms; got ${received()}`);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            waiter = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      };
      try {
        // Two heartbeats (`: ping`, every 500 ms here), each in its own chunk as it was sent: the
        // stream is live, not held until an nginx buffer fills or the answer ends.
        await until(() => (received().match(/: ping/g) ?? []).length >= 2, 15_000, 'heartbeats');
        const pings = chunks.filter((c) => c.text.includes(': ping'));
        expect(pings[1]!.at - pings[0]!.at).toBeGreaterThan(200);
        expect(streamHeaders['content-type']).toMatch(/^text\/event-stream/);
        // Not compressed (a compressor holds bytes back) and not of a known length.
        expect(streamHeaders['content-encoding']).toBeUndefined();
        expect(streamHeaders['content-length']).toBeUndefined();

        const sentAt = Date.now();
        const reply = await send(`/api/conversations/${conversationId}/messages`, {
          method: 'POST',
          headers: { ...json({}).headers, cookie: buyerCookie },
          body: JSON.stringify({ text: 'Can we meet at the library?' }),
        });
        expect(reply.status, reply.body.toString()).toBe(201);
        const answeredAt = Date.now();
        // The message is committed when its answer comes; from then, a second to reach the stream.
        await until(() => received().includes('Can we meet at the library?'), 1000, 'the message');
        console.log(
          `\n[nginx] a message reached the other participant's stream ${Date.now() - sentAt} ms after the send (${Date.now() - answeredAt} ms after its answer)`,
        );
        const event = received()
          .split('\n\n')
          .find((block) => block.includes('Can we meet at the library?'))!;
        expect(event).toMatch(/^id: \d+\nevent: conversation\ndata: \{/);
        expect(ended).toBe(false);
      } finally {
        stream.destroy();
      }
    });
  });
}

if (nginxInstalled()) {
  describeReverseProxy();
} else {
  console.warn(`\n*** nginx is not installed (${NGINX}): SKIPPING the reverse-proxy test. ***\n`);
  describe('nginx in front of two app servers', () => {
    it.skip(`SKIPPED: nginx is not installed (${NGINX}; apt-get install nginx)`, () => {});
  });
}
