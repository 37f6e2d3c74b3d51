import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '@campus-books/common/constants';
import { imageUrl } from '@campus-books/common/images';
import { openDatabase, type Database } from '../../src/db/database';
import { jobs } from '../../src/db/platform.schema';
import { images, users } from '../../src/db/schema';
import { hashPassword } from '../../src/features/accounts/password';
import { startTestS3Server, type TestS3Server } from '../support/s3-test-server';
import { balancerClients } from './load-balancer-clients';
import { freePort, sleep, startServer, waitHealthy, type ServerProcess } from './processes';

export const HAPROXY = '/usr/sbin/haproxy';
export const haproxyInstalled = () => existsSync(HAPROXY);

const CONFIG = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../ops/haproxy/campus-books.cfg',
);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHECK_INTER_MS = 500;
const HEARTBEAT_MS = 1000;
const SIGNIN_PER_ACCOUNT = 5;
const MAIL_PER_ADDRESS = 3;
const PASSWORD = 'Passw0rd!';
const letters = 'abcdefghijklmnopqrstuvwxyz';
const randomWord = () =>
  Array.from({ length: 12 }, () => letters[Math.floor(Math.random() * 26)]).join('');

export interface LoadBalancerScenario {
  /** Figure 3: writes, each followed at once by a search through another server. */
  searchAfterWrites: number;
  /** How long the mixed load runs around the kill -9 (figure 4), in ms. */
  killLoadMs: number;
  /** Parallel clients of the mixed load. */
  clients: number;
}

/** A figure the scenario prints (and the report quotes). */
const figure = (n: number, text: string) => console.log(`\n[load balancer] figure ${n}: ${text}`);

/**
 * HAProxy (ops/haproxy/campus-books.cfg, round robin, no stickiness) in front of three real app
 * servers on one fresh PostgreSQL database and one S3 emulator, on loopback only.
 */
export function describeLoadBalancer(scenario: LoadBalancerScenario) {
  describe('three app servers behind HAProxy', () => {
    let dbName: string;
    let dbUrl: string;
    let database: Database;
    let s3: TestS3Server;
    const dataDirs: string[] = [];
    const servers: ServerProcess[] = [];
    const ports: number[] = [];
    let haproxy: ChildProcess;
    let haproxyOutput = '';
    let base: string;
    let env: Record<string, string>;
    let seller: { id: string; email: string; cookie: string };
    let imageId: string;
    const startedAt = Date.now();
    const { signIn, newListing, rename, search, mixedLoad } = balancerClients(() => ({
      base,
      database,
      seller,
      imageId,
    }));

    function startApp(index: number): ServerProcess {
      const server = startServer({ ...env, DATA_DIR: dataDirs[index]! }, ports[index]!);
      servers[index] = server;
      return server;
    }

    /** Until HAProxy's checks see every server up (rise 2 × 500 ms). */
    async function waitBalanced() {
      await sleep(CHECK_INTER_MS * 3);
    }

    beforeAll(async () => {
      dbName = `cb_lb_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const url = new URL(ADMIN_URL);
      url.pathname = `/${dbName}`;
      dbUrl = url.toString();
      database = await openDatabase({ engine: 'postgres', url: dbUrl, poolSize: 4 });
      s3 = await startTestS3Server();

      env = {
        DATABASE_URL: dbUrl,
        // Three app servers, the test's own connections and, under `npm test`, other suites share
        // one PostgreSQL of max_connections 100 (docs/operations.md): 3 × (15 + 1) at most here.
        DATABASE_POOL_SIZE: '15',
        ...s3.env,
        SESSION_SECRET: 'the-secret-every-app-server-of-this-test-shares',
        PUBLIC_URL: 'http://127.0.0.1',
        JOBS_HEARTBEAT_MS: String(HEARTBEAT_MS),
        JOBS_POLL_MS: '200',
        JOBS_LEASE_MS: '3000',
        SHUTDOWN_DELAY_MS: String(CHECK_INTER_MS * 3),
        RATE_LIMIT_SIGNIN_PER_ACCOUNT: String(SIGNIN_PER_ACCOUNT),
        RATE_LIMIT_MAIL_PER_ADDRESS: String(MAIL_PER_ADDRESS),
      };
      for (let i = 0; i < 3; i += 1) {
        dataDirs.push(mkdtempSync(path.join(tmpdir(), `cb-lb-${i}-`)));
        ports.push(await freePort());
      }
      await Promise.all([0, 1, 2].map((i) => waitHealthy(startApp(i))));

      const frontPort = await freePort();
      base = `http://127.0.0.1:${frontPort}`;
      haproxy = spawn(HAPROXY, ['-db', '-f', CONFIG], {
        env: {
          ...process.env,
          CB_BIND: `127.0.0.1:${frontPort}`,
          CB_APP1: `127.0.0.1:${ports[0]}`,
          CB_APP2: `127.0.0.1:${ports[1]}`,
          CB_APP3: `127.0.0.1:${ports[2]}`,
          CB_CHECK_INTER: `${CHECK_INTER_MS}ms`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      haproxy.stdout!.on('data', (d) => (haproxyOutput += d));
      haproxy.stderr!.on('data', (d) => (haproxyOutput += d));
      for (let tries = 0; ; tries += 1) {
        try {
          if ((await fetch(`${base}/api/health`)).ok) break;
        } catch {
          // not listening yet
        }
        if (tries > 100) throw new Error(`HAProxy did not start:\n${haproxyOutput}`);
        await sleep(100);
      }
      await waitBalanced();

      // A verified seller with one ready image (listings must use their own uploads).
      const email = `seller.${randomUUID().slice(0, 8)}@richmond.edu`;
      const [user] = await database.db
        .insert(users)
        .values({
          firstName: 'Load',
          lastName: 'Balancer',
          username: 'Load Balancer',
          email,
          passwordHash: await hashPassword(PASSWORD),
          groupmelink: 'https://groupme.com/contact/1',
          emailVerifiedAt: new Date(),
        })
        .returning();
      imageId = randomUUID();
      await database.db
        .insert(images)
        .values({ id: imageId, ownerId: user!.id, status: 'ready', bytes: 1 });
      seller = { id: user!.id, email, cookie: await signIn(email, PASSWORD) };
    }, 180_000);

    afterAll(async () => {
      haproxy?.kill('SIGTERM');
      await Promise.all(
        servers.map(async (s) => {
          if (s && s.child.exitCode === null) s.child.kill('SIGKILL');
          await s?.exited;
        }),
      );
      await database?.close();
      await s3?.close();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
      if (dbName) {
        const admin = new pg.Client({ connectionString: ADMIN_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    }, 120_000);

    it('figure 1: the per-account and per-address limits hold across the servers', async () => {
      const attemptsUntil429 = async (url: string, body: object) => {
        const servers = new Set<string>();
        for (let attempt = 1; attempt <= 20; attempt += 1) {
          const res = await fetch(`${base}${url}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          servers.add(res.headers.get('x-served-by') ?? '?');
          await res.body?.cancel();
          if (res.status === 429) return { attempt, servers: servers.size };
        }
        return { attempt: Infinity, servers: servers.size };
      };
      const signIn429 = await attemptsUntil429('/api/auth/signin', {
        email: seller.email,
        password: 'wrong password',
      });
      const mail429 = await attemptsUntil429('/api/auth/forgot-password', {
        email: `nobody.${randomUUID().slice(0, 8)}@richmond.edu`,
      });
      figure(
        1,
        `sign-in per account: first 429 at attempt ${signIn429.attempt} (limit ${SIGNIN_PER_ACCOUNT}, ` +
          `expected ${SIGNIN_PER_ACCOUNT + 1}; ${signIn429.servers} servers answered); ` +
          `mail per address: first 429 at attempt ${mail429.attempt} (limit ${MAIL_PER_ADDRESS}, ` +
          `expected ${MAIL_PER_ADDRESS + 1})`,
      );
      expect(signIn429.attempt).toBe(SIGNIN_PER_ACCOUNT + 1);
      expect(mail429.attempt).toBe(MAIL_PER_ADDRESS + 1);
    });

    it('figure 2: a 2 MB upload in 256 KB chunks across servers, resumed after its server was killed', async () => {
      const cookie = seller.cookie;
      const side = 830;
      const png = await sharp(randomBytes(side * side * 3), {
        raw: { width: side, height: side, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(png.length).toBeGreaterThan(1.9 * 1024 * 1024);
      expect(png.length).toBeLessThanOrEqual(2 * 1024 * 1024);
      const tus = { 'tus-resumable': '1.0.0', cookie };
      const created = await fetch(`${base}/api/uploads`, {
        method: 'POST',
        headers: {
          ...tus,
          'upload-length': String(png.length),
          'upload-metadata': `filename ${Buffer.from('noise.png').toString('base64')},filetype ${Buffer.from('image/png').toString('base64')}`,
        },
      });
      expect(created.status, await created.text()).toBe(201);
      const location = new URL(created.headers.get('location')!, base).pathname;
      const chunkServers: string[] = [];
      const patch = async (offset: number) => {
        const res = await fetch(`${base}${location}`, {
          method: 'PATCH',
          headers: {
            ...tus,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: png.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
        });
        chunkServers.push(res.headers.get('x-served-by') ?? '?');
        return res;
      };
      const chunks = Math.ceil(png.length / UPLOAD_CHUNK_BYTES);
      for (let i = 0; i < chunks - 1; i += 1) {
        const res = await patch(i * UPLOAD_CHUNK_BYTES);
        expect(res.status, await res.text()).toBe(204);
      }
      // Kill the server that took the last chunk so far; resume through the balancer.
      const victim = Number(chunkServers.at(-1)!.replace('app', '')) - 1;
      servers[victim]!.child.kill('SIGKILL');
      await servers[victim]!.exited;
      const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: tus });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBe((chunks - 1) * UPLOAD_CHUNK_BYTES);
      const last = await patch(offset);
      const answer = await last.text();
      expect(last.status, answer).toBeLessThan(300);
      const [row] = await database.db
        .select()
        .from(images)
        .where(eq(images.id, location.split('/').at(-1)!));
      figure(
        2,
        `${png.length} bytes in ${chunks} chunks served by ${[...new Set(chunkServers)].join(', ')} ` +
          `(${chunkServers.join(' ')}); killed ${chunkServers.at(-2)} after chunk ${chunks - 1}; ` +
          `resumed at offset ${offset}; finished: ${row?.status} ${row?.width}×${row?.height}, ${row?.bytes} bytes`,
      );
      expect(new Set(chunkServers).size).toBeGreaterThanOrEqual(2);
      expect(row).toMatchObject({ status: 'ready', width: side, height: side, bytes: png.length });
      const image = await fetch(`${base}${imageUrl(row!.id, 'full')}`);
      expect(image.status).toBe(200);
      await image.body?.cancel();
      await waitHealthy(startApp(victim));
      await waitBalanced();
    });

    it(`figure 3: ${scenario.searchAfterWrites} writes, each searched at once through another server: 0 stale`, async () => {
      const id = await newListing('Search after write');
      let stale = 0;
      let otherServer = 0;
      for (let i = 0; i < scenario.searchAfterWrites; i += 1) {
        const word = randomWord();
        // Every server answers (and caches) that no listing holds the word…
        for (let s = 0; s < 3; s += 1) expect((await search(word)).names).toEqual([]);
        const name = `Search after write ${word}`;
        const res = await rename(id, name);
        expect(res.status).toBe(200);
        const writer = res.headers.get('x-served-by');
        await res.body?.cancel();
        // …the write was acknowledged: the next search, on the next server, must see it.
        const found = await search(word);
        if (found.server !== writer) otherServer += 1;
        if (found.names.join() !== name) stale += 1;
      }
      figure(
        3,
        `${scenario.searchAfterWrites} writes, ${otherServer} searched through another server: ${stale} stale`,
      );
      expect(stale).toBe(0);
      expect(otherServer).toBe(scenario.searchAfterWrites);
    });

    it('figure 4: kill -9 of one server under mixed load: no acknowledged write lost', async () => {
      let release!: () => void;
      const stop = new Promise<void>((r) => (release = r));
      const load = mixedLoad(stop, scenario.clients);
      await sleep(scenario.killLoadMs / 3);
      servers[1]!.child.kill('SIGKILL');
      await servers[1]!.exited;
      await sleep((scenario.killLoadMs * 2) / 3);
      release();
      const result = await load;
      figure(
        4,
        `${result.requests} requests (${result.writes} acknowledged writes) by ${scenario.clients} clients; ` +
          `app2 killed with SIGKILL; client-visible errors: ${result.failures} ` +
          `${JSON.stringify(Object.fromEntries(result.failureKinds))}; acknowledged writes lost: ${result.lost}`,
      );
      expect(result.lost).toBe(0);
      await waitHealthy(startApp(1));
      await waitBalanced();
    });

    it('figure 5: a rolling restart of the three servers under load: 0 failed requests', async () => {
      let release!: () => void;
      const stop = new Promise<void>((r) => (release = r));
      const load = mixedLoad(stop, scenario.clients);
      const restarts: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const started = Date.now();
        servers[i]!.child.kill('SIGTERM');
        const code = await servers[i]!.exited;
        expect(code).toBe(0);
        await waitHealthy(startApp(i));
        await waitBalanced();
        restarts.push(Date.now() - started);
      }
      release();
      const result = await load;
      figure(
        5,
        `${result.requests} requests (${result.writes} acknowledged writes) by ${scenario.clients} clients ` +
          `while app1, app2, app3 were stopped (SIGTERM) and restarted one at a time ` +
          `(${restarts.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}): ${result.failures} failed ` +
          `${JSON.stringify(Object.fromEntries(result.failureKinds))}, ${result.lost} acknowledged writes lost`,
      );
      expect(result.failures).toBe(0);
      expect(result.lost).toBe(0);
    });

    it('figure 6: the recurring job ran once per slot across the servers, and runs again after the restarts', async () => {
      type Row = { slot: string; pid: string };
      const readRuns = async () =>
        (
          (await database.db.execute(sql`
            SELECT payload->>'slot' AS slot, payload->>'pid' AS pid FROM ${jobs}
            WHERE name = 'heartbeat-ran'`)) as unknown as { rows: Row[] }
        ).rows;
      // Liveness, independent of how busy the machine is: after the last restart (each restarted
      // server waits before its first look for due jobs), a slot later than now is run by someone.
      const afterRestarts = Date.now();
      let rows = await readRuns();
      const deadline = Date.now() + 60_000;
      while (!rows.some((r) => Date.parse(r.slot) > afterRestarts) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        rows = await readRuns();
      }
      const slots = rows.map((r) => r.slot);
      const distinct = new Set(slots);
      const times = [...distinct].map((s) => Date.parse(s)).sort((a, b) => a - b);
      const span = times.length > 0 ? (times.at(-1)! - times[0]!) / HEARTBEAT_MS + 1 : 0;
      const pids = new Set(rows.map((r) => r.pid));
      figure(
        6,
        `heartbeat every ${HEARTBEAT_MS} ms for ${((Date.now() - startedAt) / 1000).toFixed(0)} s: ` +
          `${slots.length} runs, ${distinct.size} distinct slots of ${span} between the first and last ` +
          `(${span - distinct.size} skipped while a lease was held by a killed server or the restarted ` +
          `servers had not yet looked), ${slots.length - distinct.size} slots run twice; ` +
          `run by ${pids.size} processes`,
      );
      expect(slots.length - distinct.size).toBe(0);
      expect(times.at(-1)!).toBeGreaterThan(afterRestarts);
      expect(pids.size).toBeGreaterThan(1);
    });
  });
}
