import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute, dataOf } from '@campus-books/common/call-route';
import {
  signInAtProvider,
  startTestOidcProvider,
  type TestOidcProvider,
} from '../support/oidc-test-provider';
import { haproxyInstalled, HAPROXY } from './load-balancer';
import { freePort, sleep, startServer, waitHealthy, type ServerProcess } from './processes';

const CONFIG = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../ops/haproxy/campus-books.cfg',
);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `name=value` pairs of the cookies a response set, merged into a jar. */
function take(jar: Map<string, string>, res: Response) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    const value = pair!.slice(at + 1).trim();
    if (value) jar.set(pair!.slice(0, at).trim(), value);
    else jar.delete(pair!.slice(0, at).trim());
  }
}
const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

export interface SsoBalancerScenario {
  /** Sign-ons of an existing student through HAProxy, one after another (each one click). */
  oneClickSignOns: number;
  /** Students signing on for the first time at once through HAProxy (0: none). */
  firstSignOnsAtOnce: number;
}

/**
 * Issue 30's HAProxy test: two app servers on one PostgreSQL behind the project's HAProxy
 * configuration, signing in with OIDC against a real provider (oidc-provider). The sign-on starts
 * on one server and its callback and last step land on the other: everything between them is in
 * signed cookies and PostgreSQL.
 */
export function describeSsoBalancer(scenario: SsoBalancerScenario) {
  (haproxyInstalled() ? describe : describe.skip)('single sign-on behind HAProxy', () => {
    let dbName: string;
    let haproxy: ChildProcess;
    let base: string;
    let idp: TestOidcProvider;
    const servers: ServerProcess[] = [];
    const dataDirs: string[] = [];
    /** The app server (0 or 1) behind each of HAProxy's names (X-Served-By). */
    const serverBehind: Record<string, number> = { app1: 0, app2: 1, app3: 1 };

    beforeAll(async () => {
      dbName = `cb_sso_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const url = new URL(ADMIN_URL);
      url.pathname = `/${dbName}`;
      const frontPort = await freePort();
      base = `http://127.0.0.1:${frontPort}`;
      idp = await startTestOidcProvider([`${base}/api/sso/oidc/callback`]);
      const env = {
        DATABASE_URL: url.toString(),
        DATABASE_POOL_SIZE: '6',
        SESSION_SECRET: 'the-secret-every-app-server-of-this-test-shares',
        PUBLIC_URL: base,
        // The test provider speaks plain http, which only a non-production server accepts.
        NODE_ENV: 'development',
        SCHOOL_EMAIL_DOMAIN: 'richmond.edu',
        SSO_PROTOCOL: 'oidc',
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
      };
      const ports = [await freePort(), await freePort()];
      for (const [i, port] of ports.entries()) {
        dataDirs.push(mkdtempSync(path.join(tmpdir(), `cb-sso-${i}-`)));
        servers.push(startServer({ ...env, DATA_DIR: dataDirs[i]! }, port));
      }
      await Promise.all(servers.map((s) => waitHealthy(s)));
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
      // Until HAProxy answers through every one of its servers.
      const seen = new Set<string>();
      for (let tries = 0; seen.size < Object.keys(serverBehind).length; tries += 1) {
        const servedBy = await fetch(`${base}/api/health`).then(
          (r) => (r.ok ? r.headers.get('x-served-by') : null),
          () => null,
        );
        if (servedBy) seen.add(servedBy);
        if (tries > 200) throw new Error(`HAProxy did not start (answered by ${[...seen]})`);
        if (!servedBy) await sleep(100);
      }
    }, 120_000);

    afterAll(async () => {
      haproxy?.kill('SIGTERM');
      await Promise.all(
        servers.map(async (s) => {
          if (s.child.exitCode === null) s.child.kill('SIGTERM');
          await s.exited;
        }),
      );
      await idp?.close();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    });

    /** A new student at the provider: their login name. */
    function newStudent(prefix: string) {
      const login = `${prefix}-${randomUUID().slice(0, 8)}`;
      idp.accounts.set(login, {
        email: `${login}@richmond.edu`,
        email_verified: true,
        given_name: 'Bal',
        family_name: 'Ancer',
      });
      return login;
    }

    /**
     * One sign-on: start on `startAt`, callback on `finishAt` (app or balancer URLs); where it
     * leads, the cookies, and which app server (0 or 1) answered the start and the callback.
     */
    async function signOn(login: string, startAt: string, finishAt: string) {
      const jar = new Map<string, string>();
      const start = await fetch(`${startAt}/api/sso/start?returnTo=/saved`, { redirect: 'manual' });
      expect(start.status).toBe(303);
      take(jar, start);
      const back = await signInAtProvider(start.headers.get('location')!, login);
      expect(back.origin).toBe(base);
      const callback = await fetch(`${finishAt}${back.pathname}${back.search}`, {
        redirect: 'manual',
        headers: { cookie: header(jar) },
      });
      take(jar, callback);
      const servedBy = [start, callback].map((r) => serverBehind[r.headers.get('x-served-by')!]);
      return { jar, location: callback.headers.get('location'), servedBy };
    }

    /** A first sign-on's last step (the GroupMe link) at `at`. */
    async function finishFirstSignOn(at: string, jar: Map<string, string>) {
      const finish = await fetch(`${at}/api/sso/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: header(jar) },
        body: JSON.stringify({ groupmelink: 'https://groupme.com/contact/1' }),
      });
      expect(finish.status).toBe(201);
      take(jar, finish);
    }

    /** Who our session (the cb_session cookie in `jar`) says is signed in, asked at `at`. */
    async function signedInAs(at: string, jar: Map<string, string>) {
      const session = await callRoute(at, 'GET /api/auth/session', { as: { cookie: header(jar) } });
      return dataOf(session).user?.email;
    }

    it('a sign-on started on one app server finishes on the other', async () => {
      const login = newStudent('lb');
      const [a, b] = servers.map((s) => s.url) as [string, string];
      const first = await signOn(login, a, b);
      expect(first.location).toBe('/sso/finish');
      await finishFirstSignOn(a, first.jar);
      expect(await signedInAs(b, first.jar)).toBe(`${login}@richmond.edu`);

      const again = await signOn(login, b, a);
      expect(again.location).toBe('/saved');
      expect(await signedInAs(b, again.jar)).toBe(`${login}@richmond.edu`);
    });

    it(`${scenario.oneClickSignOns} one-click sign-ons through the balancer, callbacks on either server`, async () => {
      const login = newStudent('rr');
      const first = await signOn(login, base, base);
      expect(first.location).toBe('/sso/finish');
      await finishFirstSignOn(base, first.jar);
      // Round robin over three names for two servers, two requests a sign-on: consecutive
      // sign-ons start at different places in the cycle, so some callbacks reach the other server.
      let crossed = 0;
      let last = first.jar;
      for (let i = 0; i < scenario.oneClickSignOns; i += 1) {
        const again = await signOn(login, base, base);
        expect(again.location).toBe('/saved');
        expect(again.jar.get('cb_session')).toBeTruthy();
        if (again.servedBy[0] !== again.servedBy[1]) crossed += 1;
        last = again.jar;
      }
      expect(crossed).toBeGreaterThan(0);
      expect(await signedInAs(base, last)).toBe(`${login}@richmond.edu`);
    });

    // The full form only: the short one defines no such test rather than a skipped one.
    if (scenario.firstSignOnsAtOnce > 0) {
      it(`${scenario.firstSignOnsAtOnce} students sign on for the first time at once through the balancer`, async () => {
        const logins = Array.from({ length: scenario.firstSignOnsAtOnce }, () =>
          newStudent('many'),
        );
        const emails = await Promise.all(
          logins.map(async (login) => {
            const first = await signOn(login, base, base);
            expect(first.location).toBe('/sso/finish');
            await finishFirstSignOn(base, first.jar);
            return signedInAs(base, first.jar);
          }),
        );
        expect(emails).toEqual(logins.map((login) => `${login}@richmond.edu`));
      });
    }
  });
}
