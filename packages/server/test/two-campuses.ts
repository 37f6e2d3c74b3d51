import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import {
  callRoute,
  dataOf,
  type ApiCallArguments,
  type RouteAnswer,
} from '@campus-books/common/call-route';
import { buildApp } from '../src/app';
import { runInCampus, type CampusWork } from '../src/campuses/campus-context';
import {
  openCampusInstallation,
  type CampusInstallation,
} from '../src/campuses/campus-installation';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/database';
import { GENEROUS_LIMITS, sessionCookieOf, signUpBody } from './accounts';
import { campusCommandWithEnv, writeCampusFiles } from './campuses';
import { appInjector } from './api-caller';
import { createPostgresDatabase, type TestApp } from './helpers';
import { listingBody, type ListingCreateBody } from './listing-fixtures';
import { createUploadedImage } from './support/test-uploaded-image';

/** The two campuses of the many-campus suites (decision 024) and the host each is served at. */
export const CAMPUS_HOSTS = { alpha: 'books.alpha.example', beta: 'books.beta.example' } as const;
export type CampusKey = keyof typeof CAMPUS_HOSTS;
export const CAMPUS_KEYS = ['alpha', 'beta'] as const satisfies readonly CampusKey[];

export interface CampusStudent {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  /** `Cookie` header value of a signed-in session on its campus's host. */
  cookie: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SendOptions {
  payload?: object;
  cookie?: string;
  headers?: Record<string, string>;
}

export interface TwoCampuses {
  app: FastifyInstance;
  installation: CampusInstallation;
  /** The test database's owner: reads every campus's schema directly. */
  admin: pg.Client;
  /** The app as the shared test helpers take it (its database is the campus-aware facade). */
  t: TestApp;
  /** The home database's URL (the campus directory's). */
  url: string;
  campuses: ReturnType<typeof writeCampusFiles>;
  /** A request on a campus's host (or on any host given by name). */
  send(
    key: CampusKey | string,
    method: Method,
    url: string,
    options?: SendOptions,
  ): Promise<LightMyRequestResponse>;
  /** A route of the table called on a campus's host, typed by the route table (common's callRoute). */
  call<Route extends ApiRouteKey>(
    key: CampusKey,
    route: Route,
    ...options: ApiCallArguments<Route>
  ): Promise<RouteAnswer<Route>>;
  /** The campus a host serves, to run test support in its context (runInCampus). */
  campusOf(key: CampusKey): CampusWork;
  /** A verified student of the campus, signed up and in through its host. */
  studentOf(key: CampusKey, fields?: Record<string, unknown>): Promise<CampusStudent>;
  /** A listing of the student's, with a photo of theirs, created through the campus's host. */
  listingOf(
    key: CampusKey,
    student: CampusStudent,
    overrides?: Record<string, unknown>,
  ): Promise<string>;
  /** Another app on the same installation, with `env` over the suite's configuration. */
  anotherApp(env: Record<string, string>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export interface TwoCampusesOptions {
  /** Configuration over the test defaults (limits out of the way, no book lookup). */
  env?: Record<string, string>;
  /** Serve a built web app from this folder, rendered by `webServerEntry`. */
  webDistDir?: string;
  webServerEntry?: string;
  /** More of each campus's file (its sender, moderators…), by key. */
  campusFields?: Record<string, Record<string, unknown>>;
  /** The job runner's clock (tests run the jobs, at the times they set). */
  now?: () => Date;
  /** Environment variables `campus add` sees (those a campus file names: its `sso` secret). */
  commandEnv?: Record<string, string>;
}

/**
 * One installation serving two campuses (alpha and beta, decision 024) on a fresh PostgreSQL
 * database: each registered with `npm run campus -- add`, the app built on the installation's
 * routing, without polling for jobs (tests run them).
 */
export async function openTwoCampuses(options: TwoCampusesOptions = {}): Promise<TwoCampuses> {
  const target = await createPostgresDatabase(true);
  const campuses = writeCampusFiles(CAMPUS_KEYS, options.campusFields ?? {});
  for (const key of CAMPUS_KEYS) {
    const added = await campusCommandWithEnv(
      options.commandEnv ?? {},
      target.url,
      'add',
      key,
      '--host',
      CAMPUS_HOSTS[key],
      '--config',
      campuses.files[key]!,
    );
    expect(added.code, added.err).toBe(0);
  }
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  const home = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 6 });
  const installation = (await openCampusInstallation(home))!;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-test-'));
  const configOf = (env: Record<string, string>) =>
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      BOOK_LOOKUP: 'off',
      ...GENEROUS_LIMITS,
      ...options.env,
      ...env,
    });
  const config = configOf({});
  const web = options.webDistDir
    ? {
        serveWeb: true,
        webDistDir: options.webDistDir,
        webServerEntry: options.webServerEntry,
      }
    : {};
  const apps: FastifyInstance[] = [];
  const build = async (env: Record<string, string>) => {
    const built = await buildApp({
      config: configOf(env),
      database: installation.database,
      campuses: installation.routing,
      jobs: { poll: false, ...(options.now ? { now: options.now } : {}) },
      ...web,
    });
    apps.push(built);
    await built.ready();
    return built;
  };
  const app = await build({});
  const t: TestApp = {
    app,
    database: installation.database,
    config,
    dataDir,
    close: async () => {},
  };

  const send: TwoCampuses['send'] = (key, method, url, sendOptions = {}) =>
    app.inject({
      method,
      url,
      headers: {
        host: key in CAMPUS_HOSTS ? CAMPUS_HOSTS[key as CampusKey] : key,
        ...(sendOptions.cookie ? { cookie: sendOptions.cookie } : {}),
        ...sendOptions.headers,
      },
      ...(sendOptions.payload ? { payload: sendOptions.payload } : {}),
    });
  const call: TwoCampuses['call'] = (key, route, ...callOptions) => {
    const inject = appInjector(app);
    return callRoute(
      (request) => inject({ ...request, headers: { ...request.headers, host: CAMPUS_HOSTS[key] } }),
      route,
      ...callOptions,
    );
  };
  const campusOf = (key: CampusKey) => installation.routing.campusOfHost(CAMPUS_HOSTS[key])!;

  return {
    app,
    installation,
    admin,
    t,
    url: target.url,
    campuses,
    send,
    call,
    campusOf,
    async studentOf(key, fields = {}) {
      const body = signUpBody({
        email: `student.${key}.${Math.random().toString(36).slice(2, 8)}@${campuses.domains[key]}`,
        ...fields,
      });
      const signUp = await send(key, 'POST', '/api/auth/signup', { payload: body });
      expect(signUp.statusCode, signUp.body).toBe(201);
      const { rows } = await admin.query<{ id: string }>(
        `UPDATE campus_${key}.users SET email_verified_at = now() WHERE email = $1 RETURNING id`,
        [body.email],
      );
      const signIn = await send(key, 'POST', '/api/auth/signin', {
        payload: { email: body.email, password: body.password },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      return {
        id: rows[0]!.id,
        email: body.email,
        password: body.password,
        firstName: body.firstName,
        lastName: body.lastName,
        cookie: sessionCookieOf(signIn),
      };
    },
    async listingOf(key, student, overrides = {}) {
      const image = await runInCampus(campusOf(key), () => createUploadedImage(t, student.id));
      const answer = await call(key, 'POST /api/listing/create', {
        as: student,
        body: listingBody({ imageUrls: [image], ...overrides }) as ListingCreateBody,
      });
      expect(answer.status, JSON.stringify(answer)).toBe(201);
      return dataOf(answer)._id;
    },
    anotherApp: build,
    async close() {
      for (const built of apps.reverse()) await built.close();
      await installation.close();
      await admin.end();
      await target.drop();
      campuses.remove();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
