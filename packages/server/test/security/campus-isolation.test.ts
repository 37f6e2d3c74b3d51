import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { apiRoutes } from '@campus-books/common/api-routes';
import { imageUrl } from '@campus-books/common/images';
import { runInCampus } from '../../src/campuses/campus-context';
import { CampusPool } from '../../src/campuses/campus-pool';
import { signUnsubscribeToken } from '../../src/features/alerts/unsubscribe-token';
import { signListingLink } from '../../src/features/listings/listing-links';
import { listingBody } from '../listing-fixtures';
import { mailsTo, readOutbox, tokenFromLink } from '../outbox';
import { TEST_ENGINE, TEST_WEB_SHELL } from '../helpers';
import { createUploadedImage } from '../support/test-uploaded-image';
import { openSse, type SseMessage } from '../support/sse-client';
import {
  CAMPUS_HOSTS,
  CAMPUS_KEYS,
  openTwoCampuses,
  type CampusKey,
  type CampusStudent,
  type Method,
  type TwoCampuses,
} from '../two-campuses';
import { validBodyFor } from './route-fixtures';
import { listRoutes, printFigure, type RouteEntry } from './security-helpers';

const STAND_IN = fileURLToPath(new URL('../support/stand-in-renderer.ts', import.meta.url));
const METRICS_TOKEN = 'campus-isolation-metrics-token-0123456789';
/**
 * `npm run test:full` (TEST_FULL=1) tries a route of one id with every id of alpha's (thousands of
 * requests); the short form with alpha's ids of the table the route names (its every route still).
 */
const EVERY_ID = process.env.TEST_FULL === '1';
const moderatorOf = (key: CampusKey) => `moderator@${key}.example.edu`;

/** What one campus holds: its students and one of each thing a student makes. */
interface CampusWorld {
  seller: CampusStudent;
  buyer: CampusStudent;
  moderator: CampusStudent;
  listingId: string;
  /** Sold to the buyer, and rated. */
  soldListingId: string;
  courseCode: string;
  conversationId: string;
  offerId: string;
  alertId: string;
  draftId: string;
  /** The seller's processed image no listing uses. */
  spareImageId: string;
  /** A photo the buyer sent in the conversation (served to its two students only). */
  messagePhotoId: string;
  /** A tus upload of the seller's, not finished. */
  uploadId: string;
  /** Every token a mail of this campus carries: reset, verification, listing link, unsubscribe. */
  tokens: { reset: string; verify: string; listingLink: string; unsubscribe: string };
  /** Words found only in this campus's rows (names, titles, texts): never in another's answer. */
  words: string[];
}

/** Each campus's own words, so an answer naming another campus's is found by text. */
const wordsOf = (key: CampusKey) => {
  const w = key === 'alpha' ? 'Xylophonic' : 'Vibraphonic';
  return {
    title: `${w} Chemistry Reader`,
    soldTitle: `${w} Optics Workbook`,
    description: `Kept on the ${w} shelf, no notes.`,
    message: `Is the ${w} book still there?`,
    offerNote: `${w} offer`,
    report: `${w} report note`,
    draft: `${w} draft title`,
    seller: { firstName: `${w}a`, lastName: `Sellerov${key}` },
    buyer: { firstName: `${w}o`, lastName: `Buyerov${key}` },
    moderator: { firstName: `${w}i`, lastName: `Moderov${key}` },
  };
};

// Issue 45: a student of one campus can never read, search, message, rate, report or be mailed
// anything of another. Every route of the app is asked on beta's host with alpha's ids, as beta's
// student, beta's moderator and with alpha's own session cookie; then the caches, the event stream,
// the rate limits, the metrics and the alerts' fan-out. PostgreSQL only (a schema per campus).
describe.skipIf(TEST_ENGINE !== 'postgres')('campus isolation across the route table', () => {
  let two: TwoCampuses;
  let distDir: string;
  const worlds = {} as Record<CampusKey, CampusWorld>;
  /** Every uuid of alpha's schema, by table. */
  let alphaIds: Map<string, string[]>;
  /** What no answer on beta's host may contain (unless the request itself sent it). */
  let alphaSecrets: string[];
  const figures = {
    routes: 0,
    routesWithParams: 0,
    requests: 0,
    alphaIdsInPaths: 0,
    accepted: 0,
    refused: 0,
    leaks: 0,
    everyId: EVERY_ID,
    secondWallRequests: 0,
    secondWallConnections: 0,
  };

  /**
   * Routes that may accept an id of alpha's and still hold nothing of alpha's: the caller's own
   * list or id space (a block names a student but only the caller's list changes; a draft's id is
   * the caller's to choose).
   */
  const ACCEPTS_ANY_ID = new Set<string>([
    'PUT /api/drafts/:id',
    'DELETE /api/drafts/:id',
    // One answer for every draft named, each draft's refusal inside (404 for alpha's).
    'POST /api/drafts/publish',
    // A filter of the caller's own inbox: alpha's listing finds none of it.
    'GET /api/conversations',
    'GET /api/conversations/',
    // The same answer whoever the address is, so it tells nobody whether an account exists.
    'POST /api/auth/forgot-password',
    'POST /api/auth/resend-verification',
    // A link signed with the installation's secret: it names alpha's student and alerts, which
    // beta's schema does not hold, so it stops nothing (alpha's rows are compared after).
    'GET /api/alerts/unsubscribe',
    'POST /api/alerts/unsubscribe',
  ]);

  const send = (key: CampusKey | string, method: Method, url: string, options = {}) =>
    two.send(key, method, url, options);

  /** Makes one campus's world through its own host, as its students would. */
  async function makeWorld(key: CampusKey): Promise<CampusWorld> {
    const words = wordsOf(key);
    const seller = await two.studentOf(key, words.seller);
    const buyer = await two.studentOf(key, words.buyer);
    const moderator = await two.studentOf(key, { ...words.moderator, email: moderatorOf(key) });
    const campus = two.campusOf(key);
    const subject = activeCampus().subjects[0]!.code;
    const listingId = await two.listingOf(key, seller, {
      name: words.title,
      description: words.description,
      courseNumber: `${subject} 211`,
    });
    const soldListingId = await two.listingOf(key, seller, {
      name: words.soldTitle,
      courseNumber: `${subject} 212`,
    });
    const courseCode = `${subject}-211`;
    const as = (student: CampusStudent, method: Method, url: string, payload?: object) =>
      send(key, method, url, { cookie: student.cookie, ...(payload ? { payload } : {}) });
    const ok = (res: LightMyRequestResponse) => {
      expect(res.statusCode, `${res.statusCode} ${res.body}`).toBeLessThan(300);
      return res;
    };

    // A conversation with a photo and an offer; a second one, sold to the buyer and rated.
    const started = ok(
      await as(buyer, 'POST', '/api/conversations', { listingId, text: words.message }),
    );
    const conversationId = started.json<{ conversationId: string }>().conversationId;
    const photo = await runInCampus(campus, () => createUploadedImage(two.t, buyer.id));
    const messagePhotoId = photo.split('/')[3]!;
    ok(
      await as(buyer, 'POST', `/api/conversations/${conversationId}/messages`, {
        text: words.message,
        photos: [messagePhotoId],
      }),
    );
    const offered = ok(
      await as(buyer, 'POST', `/api/conversations/${conversationId}/offers`, {
        amount: 15,
      }),
    );
    const offerId = offered.json<{ event: { offerId: string } }>().event.offerId;
    const second = ok(
      await as(buyer, 'POST', '/api/conversations', {
        listingId: soldListingId,
        text: words.message,
      }),
    );
    expect(second.json<{ conversationId: string }>().conversationId).toBeTruthy();
    ok(
      await as(seller, 'POST', `/api/conversations/listing/${soldListingId}/sold`, {
        buyerId: buyer.id,
      }),
    );
    const exchanges = ok(await as(buyer, 'GET', '/api/ratings/exchanges')).json<{
      exchanges: { id: string }[];
    }>();
    ok(
      await as(buyer, 'POST', `/api/ratings/exchanges/${exchanges.exchanges[0]!.id}`, {
        positive: true,
        tags: ['on_time'],
      }),
    );
    ok(await as(buyer, 'POST', `/api/saved/add/${listingId}`));
    const alert = ok(
      await as(buyer, 'POST', '/api/alerts/create', {
        subject,
        courseNumber: '211',
        maxPrice: 90,
      }),
    );
    const alertId = alert.json<{ _id?: string; id?: string }>();
    ok(
      await as(buyer, 'POST', `/api/reports/${listingId}`, {
        reason: 'spam_or_scam',
        note: words.report,
      }),
    );
    ok(
      await as(seller, 'POST', `/api/conversations/${conversationId}/report`, {
        reason: 'harassment',
        note: words.report,
      }),
    );
    const spot = activeCampus().meetupSpots[0]!;
    ok(
      await as(seller, 'POST', '/api/meetups', {
        conversationId,
        spotId: spot.id,
        startsAt: new Date(Date.now() + 5 * 3_600_000).toISOString(),
      }),
    );
    const draftId = randomUUID();
    ok(
      await as(seller, 'PUT', `/api/drafts/${draftId}`, {
        fields: { name: words.draft },
        imageUrls: [],
      }),
    );
    const spare = await runInCampus(campus, () => createUploadedImage(two.t, seller.id));
    const upload = await send(key, 'POST', '/api/uploads', {
      cookie: seller.cookie,
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': `filename ${Buffer.from('p.jpg').toString('base64')},filetype aW1hZ2UvanBlZw==`,
      },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const uploadId = String(upload.headers.location).split('/').pop()!;

    // The tokens its mails carry.
    ok(await send(key, 'POST', '/api/auth/forgot-password', { payload: { email: seller.email } }));
    const mails = await mailsTo(two.t, seller.email);
    const reset = tokenFromLink(
      mails.find((m) => m.text.includes('reset-password'))!,
      'reset-password',
    );
    const verify = tokenFromLink(
      mails.find((m) => m.text.includes('verify-email'))!,
      'verify-email',
    );
    const { rows } = await two.admin.query<{ confirmed_at: Date }>(
      `SELECT confirmed_at FROM campus_${key}.listings WHERE id = $1`,
      [listingId],
    );
    const listingLink = signListingLink(two.t.config.sessionSecret, {
      listingId,
      action: 'extend',
      validUntil: new Date(Date.now() + 86_400_000),
      confirmedAt: rows[0]!.confirmed_at,
    });
    const id = alertId._id ?? alertId.id!;
    const unsubscribe = signUnsubscribeToken(
      two.t.config.sessionSecret,
      buyer.id,
      [id],
      new Date(),
      {
        savedListings: true,
        termEndMail: true,
        messageMails: true,
      },
    );
    return {
      seller,
      buyer,
      moderator,
      listingId,
      soldListingId,
      courseCode,
      conversationId,
      offerId,
      alertId: id,
      draftId,
      spareImageId: spare.split('/')[3]!,
      messagePhotoId,
      uploadId,
      tokens: { reset, verify, listingLink, unsubscribe },
      words: [
        words.title,
        words.soldTitle,
        words.description,
        words.message,
        words.report,
        words.draft,
        ...[seller, buyer, moderator].flatMap((s) => [s.email, s.firstName, s.lastName]),
      ],
    };
  }

  /** Every uuid in the campus's schema, by table (read as the database's owner). */
  async function idsOf(key: CampusKey): Promise<Map<string, string[]>> {
    const { rows: tables } = await two.admin.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
       WHERE table_schema = $1 AND column_name = 'id' AND data_type = 'uuid' ORDER BY 1`,
      [`campus_${key}`],
    );
    const ids = new Map<string, string[]>();
    for (const { table_name } of tables) {
      const { rows } = await two.admin.query<{ id: string }>(
        `SELECT id::text FROM campus_${key}."${table_name}" ORDER BY 1`,
      );
      if (rows.length > 0)
        ids.set(
          table_name,
          rows.map((r) => r.id),
        );
    }
    return ids;
  }

  /** Row counts and an md5 of every row of every table of the campus's schema. */
  let fingerprintSql = '';
  async function fingerprintOf(key: CampusKey): Promise<string> {
    if (!fingerprintSql) {
      const { rows } = await two.admin.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
         WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
        [`campus_${key}`],
      );
      expect(rows.length).toBeGreaterThan(20);
      fingerprintSql = `SELECT concat_ws('|', ${rows
        .map(
          ({ table_name }) =>
            `(SELECT '${table_name}:' || count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM SCHEMA."${table_name}" t)`,
        )
        .join(', ')}) AS fp`;
    }
    const { rows } = await two.admin.query<{ fp: string }>(
      fingerprintSql.replaceAll('SCHEMA.', `campus_${key}.`),
    );
    return rows[0]!.fp;
  }

  /** An answer's text, uncompressed. */
  function textOf(res: LightMyRequestResponse): string {
    const encoding = res.headers['content-encoding'];
    if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
    if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
    return res.body;
  }

  /** The alpha secrets an answer holds that its request did not send. */
  function leaksIn(res: LightMyRequestResponse, request: string): string[] {
    const answer = `${JSON.stringify(res.headers)}\n${textOf(res)}`;
    return alphaSecrets.filter((secret) => answer.includes(secret) && !request.includes(secret));
  }

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(tmpdir(), 'cb-web-dist-'));
    writeFileSync(path.join(distDir, 'index.html'), TEST_WEB_SHELL);
    two = await openTwoCampuses({
      env: {
        METRICS: 'on',
        METRICS_TOKEN,
        MODERATOR_EMAILS: `${moderatorOf('alpha')},${moderatorOf('beta')}`,
        PAGE_CACHE_MB: '4',
      },
      webDistDir: distDir,
      webServerEntry: STAND_IN,
    });
    worlds.alpha = await makeWorld('alpha');
    worlds.beta = await makeWorld('beta');
    alphaIds = await idsOf('alpha');
    const alpha = worlds.alpha;
    alphaSecrets = [
      ...new Set([
        ...[...alphaIds.values()].flat(),
        ...alpha.words,
        ...Object.values(alpha.tokens),
        alpha.uploadId,
        'alpha University',
        'alpha.example.edu',
        CAMPUS_HOSTS.alpha,
        'campus_alpha',
      ]),
    ];
  }, 120_000);
  afterAll(async () => {
    printFigure('campus isolation', figures);
    await two?.close();
    if (distDir) rmSync(distDir, { recursive: true, force: true });
  });

  it("holds one of each of alpha's things, each in alpha's schema", () => {
    for (const table of [
      'users',
      'listings',
      'images',
      'conversations',
      'offers',
      'alerts',
      'exchanges',
      'ratings',
      'listing_reports',
      'conversation_reports',
      'listing_drafts',
      'meetups',
    ]) {
      expect(alphaIds.get(table)?.length ?? 0, table).toBeGreaterThan(0);
    }
  });

  /**
   * What an `:id` names, by the path it sits in (longest prefix first): the walk fills it with
   * alpha's rows of that table. A route whose parameter is in neither table fails the walk.
   */
  const ID_TABLES: [prefix: string, table: string][] = [
    ['/api/moderation/conversations/', 'conversations'],
    ['/api/conversations/', 'conversations'],
    ['/api/ratings/exchanges/', 'exchanges'],
    ['/api/ratings/', 'ratings'],
    ['/api/user/', 'users'],
    ['/api/profiles/', 'users'],
    ['/api/listing/', 'listings'],
    ['/api/saved/', 'listings'],
    ['/api/alerts/', 'alerts'],
    ['/api/uploads/', 'images'],
    ['/api/images/', 'images'],
    ['/api/meetups/', 'meetups'],
    ['/api/drafts/', 'listing_drafts'],
  ];
  /** Path parameters named for what they hold, wherever they sit. */
  const PARAM_TABLES: Record<string, string> = {
    listingId: 'listings',
    userId: 'users',
    sellerId: 'users',
    offerId: 'offers',
    imageId: 'images',
  };
  const idsOfTable = (table: string) => {
    const ids = alphaIds.get(table);
    if (!ids?.length) throw new Error(`alpha has no ${table} to walk with`);
    return ids;
  };

  /** Alpha's values for one path parameter of a route; throws for one the walk does not know. */
  function alphaValuesFor(route: RouteEntry, param: string): string[] {
    const alpha = worlds.alpha;
    const table =
      PARAM_TABLES[param] ??
      (param === 'id' ? ID_TABLES.find(([prefix]) => route.path.startsWith(prefix))?.[1] : null);
    if (table) {
      const ids = idsOfTable(table);
      if (table === 'images') return [...ids, alpha.uploadId];
      return ids;
    }
    switch (param) {
      case 'file':
        return ['640.webp'];
      case 'token':
        return route.path.includes('reset-password')
          ? [alpha.tokens.reset]
          : [alpha.tokens.listingLink];
      case 'isbn':
        return ['9780306406157'];
      case 'code':
        return [alpha.courseCode];
      case '*':
        return [`listing/${alpha.listingId}`, `u/${alpha.seller.id}`];
      default:
        throw new Error(
          `the walk does not know what :${param} of ${route.method} ${route.path} names: add it to ID_TABLES or PARAM_TABLES`,
        );
    }
  }

  /** Every uuid alpha has that a path could name (a route with one id is tried with each). */
  const everyAlphaId = () => [
    ...new Set([
      ...[...alphaIds.entries()].filter(([t]) => t !== 'sessions').flatMap(([, ids]) => ids),
      worlds.alpha.uploadId,
    ]),
  ];

  /** Each URL the walk asks for a route: its parameters filled with alpha's values. */
  function urlsOf(route: RouteEntry, everyId = true): string[] {
    const names = [...route.path.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
    const idParams = names.filter((n) => !['file', 'token', 'isbn', 'code', '*'].includes(n));
    let fills: Record<string, string>[] = [{}];
    for (const name of names) {
      // A route naming one thing is tried with every id of alpha's, whatever its table.
      const values =
        everyId && idParams.length === 1 && idParams[0] === name
          ? [...new Set([...alphaValuesFor(route, name), ...everyAlphaId()])]
          : alphaValuesFor(route, name);
      fills = fills.flatMap((fill) => values.map((value) => ({ ...fill, [name]: value })));
    }
    const query = QUERY[`${route.method} ${route.path}`]?.();
    return fills.map((fill) => {
      const filled = route.path.replace(/:(\w+)|\*/g, (_m, name?: string) =>
        name ? encodeURIComponent(fill[name]!) : fill['*']!,
      );
      return query ? `${filled}?${query}` : filled;
    });
  }

  /** Query strings naming alpha's things. */
  const QUERY: Record<string, () => string> = {
    'GET /api/listing/get': () => 'searchTerm=Xylophonic',
    'GET /api/conversations': () => `listingId=${worlds.alpha.listingId}`,
    'GET /api/conversations/': () => `listingId=${worlds.alpha.listingId}`,
    'GET /api/meetups': () => `conversationId=${worlds.alpha.conversationId}`,
    'GET /api/meetups/': () => `conversationId=${worlds.alpha.conversationId}`,
    'GET /api/course/:code/prices': () => 'title=Xylophonic',
    'GET /api/alerts/unsubscribe': () => `token=${worlds.alpha.tokens.unsubscribe}`,
    'POST /api/alerts/unsubscribe': () => `token=${worlds.alpha.tokens.unsubscribe}`,
    'GET /api/my-courses/books': () => `courses=${worlds.alpha.courseCode}`,
    'GET /api/my-courses/suggest': () => `subject=${worlds.alpha.courseCode.split('-')[0]}`,
    'GET /api/alerts/demand': () =>
      `subject=${worlds.alpha.courseCode.split('-')[0]}&courseNumber=211`,
    'GET /search': () => 'searchTerm=Xylophonic&status=x',
  };

  /** Bodies naming alpha's things (the rest: the valid body of the route, or none). */
  function bodyOf(route: RouteEntry, walker: Walker): unknown {
    const alpha = worlds.alpha;
    const alphaImage = imageUrl(alpha.spareImageId);
    const bodies: Record<string, () => unknown> = {
      'POST /api/auth/signin': () => ({
        email: alpha.seller.email,
        password: alpha.seller.password,
      }),
      'POST /api/auth/verify-email': () => ({ token: alpha.tokens.verify }),
      'POST /api/auth/resend-verification': () => ({ email: alpha.seller.email }),
      'POST /api/auth/forgot-password': () => ({ email: alpha.seller.email }),
      'POST /api/auth/reset-password/:token': () => ({ password: 'Another-Secret-123' }),
      'POST /api/listing/create': () => listingBody({ imageUrls: [alphaImage] }),
      'POST /api/listing/update/:id': () => listingBody({ imageUrls: [alphaImage] }),
      'POST /api/user/update/:id': () => ({ username: 'New Name', avatar: alphaImage }),
      'DELETE /api/user/delete/:id': () => ({ password: walker.password }),
      'POST /api/conversations': () => ({ listingId: alpha.listingId, text: 'Still there?' }),
      'POST /api/conversations/': () => ({ listingId: alpha.listingId, text: 'Still there?' }),
      'POST /api/conversations/:id/messages': () => ({
        text: 'Hello',
        photos: [alpha.messagePhotoId],
      }),
      'POST /api/conversations/:id/offers': () => ({
        amount: 10,
        listingIds: [alpha.soldListingId],
      }),
      'POST /api/conversations/listing/:listingId/sold': () => ({ buyerId: alpha.buyer.id }),
      'POST /api/meetups': () => ({
        conversationId: alpha.conversationId,
        spotId: activeCampus().meetupSpots[0]!.id,
        startsAt: new Date(Date.now() + 5 * 3_600_000).toISOString(),
      }),
      'POST /api/drafts/publish': () => ({ draftIds: [alpha.draftId] }),
      'POST /api/alerts/unsubscribe': () => ({ token: alpha.tokens.unsubscribe }),
    };
    bodies['POST /api/meetups/'] = bodies['POST /api/meetups']!;
    const key = `${route.method} ${route.path}`;
    return bodies[key] ? bodies[key]() : validBodyFor(route);
  }

  interface Walker {
    name: string;
    cookie: string;
    password: string;
    /** Signed in on beta's host: an event stream it opens is accepted (and never ends). */
    signedIn: boolean;
  }

  /**
   * Asks every route of the app on beta's host as each walker, its parameters, query and body naming
   * alpha's things (`everyId`: a route of one id with every id of alpha's). What it found wrong: an
   * answer naming alpha, an id of alpha's accepted, a 5xx (unless the database is to refuse), a
   * change to alpha's rows.
   */
  async function walk(
    walkers: Walker[],
    options: { everyId: boolean; main?: boolean; refusedByDatabase?: boolean },
  ): Promise<{ findings: string[]; walked: Set<string> }> {
    // The figures are the first walk's; the second wall's count its requests only.
    const tally = options.main
      ? figures
      : {
          routes: 0,
          routesWithParams: 0,
          requests: 0,
          refused: 0,
          accepted: 0,
          leaks: 0,
          alphaIdsInPaths: 0,
        };
    // Signing out ends the walker's session: last.
    const last = (r: RouteEntry) => (r.path === '/api/auth/signout' ? 1 : 0);
    const routes = listRoutes(two.app).sort((a, b) => last(a) - last(b));
    const alphaBefore = await fingerprintOf('alpha');
    const findings: string[] = [];
    const walked = new Set<string>();
    const alphaTokens = Object.values(worlds.alpha.tokens);
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const urls = urlsOf(route, options.everyId);
      tally.routes += 1;
      if (/[:*]/.test(route.path)) tally.routesWithParams += 1;
      for (const walker of walkers) {
        // An accepted event stream never ends: the stream's own test below reads it.
        if (route.path === '/api/conversations/events' && walker.signedIn) continue;
        for (const url of urls) {
          const body = bodyOf(route, walker);
          const tus = route.path.startsWith('/api/uploads');
          const res = await send('beta', route.method as Method, url, {
            cookie: walker.cookie,
            headers: {
              ...(tus
                ? {
                    'tus-resumable': '1.0.0',
                    'upload-offset': '0',
                    'upload-length': '1000',
                    'content-type': 'application/offset+octet-stream',
                  }
                : {}),
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(body !== undefined ? { payload: body as object } : {}),
          });
          const request = `${url} ${JSON.stringify(body) ?? ''} ${walker.cookie}`;
          const label = `${walker.name}: ${route.method} ${url} -> ${res.statusCode}`;
          tally.requests += 1;
          if (res.statusCode >= 400) tally.refused += 1;
          else tally.accepted += 1;
          if (res.statusCode >= 500 && !options.refusedByDatabase) {
            findings.push(`5xx ${label} ${res.body.slice(0, 200)}`);
          }
          const leaks = leaksIn(res, request);
          if (leaks.length > 0) {
            tally.leaks += 1;
            findings.push(`leak ${label}: ${leaks.join(', ')} in ${res.body.slice(0, 300)}`);
          }
          const namesAlpha =
            alphaSecrets.some((secret) => request.includes(secret) && secret.length >= 20) ||
            alphaTokens.some((token) => request.includes(token));
          if (namesAlpha) tally.alphaIdsInPaths += 1;
          const accepted = res.statusCode < 400 && !ACCEPTS_ANY_ID.has(key);
          if (namesAlpha && accepted && !options.refusedByDatabase) {
            findings.push(`accepted ${label} ${res.body.slice(0, 200)}`);
          }
        }
        walked.add(key);
      }
      const alphaNow = await fingerprintOf('alpha');
      if (alphaNow !== alphaBefore) {
        findings.push(`alpha's rows changed by ${key}`);
      }
    }
    if (!options.main) figures.secondWallRequests += tally.requests;
    return { findings, walked };
  }

  it(
    "walks every route on beta's host with alpha's ids: no answer names alpha, nothing of alpha's changes",
    { timeout: 600_000 },
    async () => {
      const beta = worlds.beta;
      // Students of their own for the walk: it signs each out at its end.
      const student = await two.studentOf('beta');
      const walkers: Walker[] = [
        {
          name: "beta's student",
          cookie: student.cookie,
          password: student.password,
          signedIn: true,
        },
        {
          name: "beta's moderator",
          cookie: beta.moderator.cookie,
          password: beta.moderator.password,
          signedIn: true,
        },
        {
          name: "alpha's session cookie",
          cookie: worlds.alpha.seller.cookie,
          password: worlds.alpha.seller.password,
          signedIn: false,
        },
      ];
      const routes = listRoutes(two.app);
      const mailsBefore = (await readOutbox(two.t)).length;
      const { findings, walked } = await walk(walkers, { everyId: EVERY_ID, main: true });
      expect(findings).toEqual([]);
      // Every route of the app, and so of the route table, was walked.
      expect([...walked].sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
      // The route table's routes too (single sign-on's answer 404 on a campus without a provider).
      expect(Object.keys(apiRoutes).filter((key) => !walked.has(key))).toEqual([]);
      // No mail went to any of alpha's addresses.
      const mails = (await readOutbox(two.t)).slice(mailsBefore);
      expect(mails.filter((m) => m.to.endsWith('@alpha.example.edu'))).toEqual([]);
      // Alpha's spare image and unfinished upload are still alpha's.
      const alpha = worlds.alpha;
      expect((await send('alpha', 'GET', imageUrl(alpha.spareImageId))).statusCode).toBe(200);
    },
  );

  it(
    "second wall: with beta's connections' search path naming alpha's schema, the walk still finds nothing of alpha's",
    { timeout: 600_000 },
    async () => {
      const student = await two.studentOf('beta');
      const walker: Walker = {
        name: "beta's student, first wall down",
        cookie: student.cookie,
        password: student.password,
        signedIn: true,
      };
      const original = CampusPool.prototype.connect;
      let searchPath = '';
      let pointedWrong = 0;
      // The first wall down: every connection beta's handles take has its search path set to
      // `searchPath` after it was pointed at beta (beta's role kept), and is closed on release.
      CampusPool.prototype.connect = async function (this: CampusPool) {
        const client = await original.call(this);
        if (this.schema !== 'campus_beta') return client;
        await client.query(`SET search_path TO ${searchPath}`);
        pointedWrong += 1;
        const release = client.release.bind(client);
        client.release = (error?: Error | boolean) =>
          release(error ?? new Error('search path changed by the test'));
        return client;
      };
      try {
        // Alpha's schema first: beta's role may not look in it, so PostgreSQL skips it and every
        // name finds beta's table. Beta works as before; nothing of alpha's is found.
        searchPath = 'campus_alpha, campus_beta, public';
        const own = await send('beta', 'GET', `/api/listing/get/${worlds.beta.listingId}`);
        expect(own.statusCode, own.body).toBe(200);
        const { findings } = await walk([walker], { everyId: false });
        expect(findings).toEqual([]);
        // Alpha's schema and public only: every table name finds public's, which beta's role may
        // not read. Each request is refused by the database (a 5xx), and none names alpha.
        searchPath = 'campus_alpha, public';
        // An id no answer was kept for, so the database is asked (a listing's answer by id is
        // kept until the catalogue changes: beta's 404 for alpha's ids, from the first walk, is).
        const refused = await send('beta', 'GET', `/api/listing/get/${randomUUID()}`);
        expect(refused.statusCode).toBe(500);
        const second = await walk([walker], { everyId: false, refusedByDatabase: true });
        expect(second.findings).toEqual([]);
      } finally {
        CampusPool.prototype.connect = original;
      }
      expect(pointedWrong).toBeGreaterThan(100);
      figures.secondWallConnections = pointedWrong;
    },
  );

  it("never serves an answer kept for alpha's host to beta's: searches, course and listing pages, signed-out pages, ETags", async () => {
    const alpha = worlds.alpha;
    const beta = worlds.beta;
    // The same addresses on both hosts; each campus has a listing of the same course. Where an
    // address shows a listing, alpha's answer has alpha's (the control) and beta's has beta's.
    const asked: { url: string; alphaHas?: string; betaHas?: string }[] = [
      {
        url: '/api/listing/get?searchTerm=Chemistry',
        alphaHas: alpha.listingId,
        betaHas: beta.listingId,
      },
      { url: '/api/listing/get', alphaHas: alpha.listingId, betaHas: beta.listingId },
      { url: '/api/listing/get?searchTerm=Xylophonic', alphaHas: alpha.listingId },
      { url: `/api/course/${alpha.courseCode}` },
      { url: `/api/course/${alpha.courseCode}/prices?title=Chemistry` },
      { url: `/api/listing/get/${alpha.listingId}`, alphaHas: alpha.listingId },
      { url: '/' },
      { url: '/search?searchTerm=Chemistry&status=x' },
      { url: `/listing/${alpha.listingId}`, alphaHas: alpha.listingId },
      { url: `/course/${alpha.courseCode}` },
    ];
    let conditionals = 0;
    for (const { url, alphaHas, betaHas } of asked) {
      for (const encoding of [undefined, 'br, gzip', 'gzip']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        // Twice each way: a cache filled by the first host's answer would give it to the second.
        for (const order of [
          ['alpha', 'beta'],
          ['beta', 'alpha'],
          ['alpha', 'beta'],
        ] as const) {
          const answers = {} as Record<CampusKey, LightMyRequestResponse>;
          for (const key of order) answers[key] = await send(key, 'GET', url, { headers });
          const label = `${url} (${encoding ?? 'identity'}, ${order.join(' then ')})`;
          expect(answers.beta.statusCode, label).toBeLessThan(500);
          expect(leaksIn(answers.beta, url), label).toEqual([]);
          if (alphaHas) expect(textOf(answers.alpha), label).toContain(alphaHas);
          if (betaHas) expect(textOf(answers.beta), label).toContain(betaHas);
          // Alpha's ETag on beta's host: a 304 only for the very same bytes.
          const etag = answers.alpha.headers.etag;
          if (etag) {
            conditionals += 1;
            const conditional = await send('beta', 'GET', url, {
              headers: { ...headers, 'if-none-match': String(etag) },
            });
            if (conditional.statusCode === 304) {
              expect(answers.beta.rawPayload.equals(answers.alpha.rawPayload), label).toBe(true);
            } else {
              expect(leaksIn(conditional, url), label).toEqual([]);
            }
          }
        }
      }
    }
    expect(conditionals).toBeGreaterThan(0);
  });

  it("sends beta's event stream nothing of alpha's conversation", async () => {
    const alpha = worlds.alpha;
    const beta = worlds.beta;
    const origin = await two.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openSse(`${origin}/api/conversations/events`, {
      cookie: beta.buyer.cookie,
      host: CAMPUS_HOSTS.beta,
    });
    try {
      expect(stream.status).toBe(200);
      // Alpha's conversation moves: a message each way and a read mark.
      for (const [from, text] of [
        [alpha.seller, 'Xylophonic: yes, still here'],
        [alpha.buyer, 'Xylophonic: see you at noon'],
      ] as const) {
        const res = await send(
          'alpha',
          'POST',
          `/api/conversations/${alpha.conversationId}/messages`,
          {
            cookie: from.cookie,
            payload: { text },
          },
        );
        expect(res.statusCode, res.body).toBe(201);
      }
      const read = await send('alpha', 'POST', `/api/conversations/${alpha.conversationId}/read`, {
        cookie: alpha.seller.cookie,
        payload: { upTo: Number.MAX_SAFE_INTEGER },
      });
      expect(read.statusCode, read.body).toBe(200);
      // Then beta's: beta's buyer writes, beta's seller reads it, and the buyer's streams are told
      // (`event: seen`, after every event committed before it): the marker that ends the wait.
      const sent = await send(
        'beta',
        'POST',
        `/api/conversations/${beta.conversationId}/messages`,
        {
          cookie: beta.buyer.cookie,
          payload: { text: 'The marker' },
        },
      );
      expect(sent.statusCode, sent.body).toBe(201);
      const seen = await send('beta', 'POST', `/api/conversations/${beta.conversationId}/read`, {
        cookie: beta.seller.cookie,
        payload: { upTo: sent.json<{ event: { id: number } }>().event.id },
      });
      expect(seen.statusCode, seen.body).toBe(200);
      const received: SseMessage[] = [];
      for (;;) {
        const message = await stream.next();
        received.push(message);
        if (message.event === 'seen') break;
      }
      expect(JSON.parse(received.at(-1)!.data)).toMatchObject({
        conversationId: beta.conversationId,
      });
      const fromAlpha = received.filter((m) => alphaSecrets.some((s) => m.data.includes(s)));
      expect(fromAlpha).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it("counts attempts on alpha's host apart from beta's: an address or IP limited on one is not on the other", async () => {
    const limited = await two.anotherApp({
      RATE_LIMIT_MAIL_PER_ADDRESS: '2',
      RATE_LIMIT_MAIL_PER_IP: '3',
    });
    for (const key of CAMPUS_KEYS) await two.admin.query(`DELETE FROM campus_${key}.rate_limits`);
    const ask = (key: CampusKey, email: string) =>
      limited.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: { host: CAMPUS_HOSTS[key] },
        payload: { email },
      });
    const address = `limited.${randomUUID().slice(0, 8)}@alpha.example.edu`;
    expect((await ask('alpha', address)).statusCode).toBe(200);
    expect((await ask('alpha', address)).statusCode).toBe(200);
    // The address's limit reached on alpha's host (and the IP's: three attempts counted)...
    expect((await ask('alpha', address)).statusCode).toBe(429);
    // ...but not on beta's.
    const onBeta = await ask('beta', address);
    expect(onBeta.statusCode, onBeta.body).toBe(200);
    const other = `other.${randomUUID().slice(0, 8)}@alpha.example.edu`;
    expect((await ask('alpha', other)).statusCode).toBe(429);
    expect((await ask('beta', other)).statusCode).toBe(200);
    // Each campus's counters are in its own schema; none in the default campus's.
    for (const key of CAMPUS_KEYS) {
      const { rows } = await two.admin.query<{ key: string; count: number }>(
        `SELECT key, count FROM campus_${key}.rate_limits WHERE key LIKE '%' || $1`,
        [address],
      );
      expect(
        rows.map((r) => r.count),
        key,
      ).toEqual([key === 'alpha' ? 2 : 1]);
    }
    const { rows } = await two.admin.query(
      `SELECT key FROM public.rate_limits WHERE key LIKE '%' || $1`,
      [address],
    );
    expect(rows).toEqual([]);
  });

  it("answers /metrics on beta's host with nothing of alpha's", async () => {
    const res = await send('beta', 'GET', '/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^# HELP /m);
    expect(leaksIn(res, '')).toEqual([]);
    // The operator's token reads every campus's figures on any host (labelled with the campus's
    // key, no more): never a host, a school domain, a schema or a campus's name.
    expect(res.body).not.toMatch(/example\.edu|books\.alpha|campus_alpha|alpha University/);
  });

  it("mails beta's alert nothing of a listing new on alpha: the fan-out of each campus runs in its own schema", async () => {
    const alpha = worlds.alpha;
    const beta = worlds.beta;
    for (const [key, student] of [
      ['alpha', alpha.buyer],
      ['beta', beta.buyer],
    ] as const) {
      const res = await send(key, 'POST', '/api/alerts/create', {
        cookie: student.cookie,
        payload: { searchTerm: 'Marimbaphonic' },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const listingId = await two.listingOf('alpha', alpha.seller, {
      name: 'Marimbaphonic Acoustics',
    });
    // The jobs of each campus, in its context, then the default campus's (as the server runs them).
    for (const key of CAMPUS_KEYS)
      await runInCampus(two.campusOf(key), () => two.app.jobs.runDue());
    await two.app.jobs.runDue();
    const deliveriesOf = async (key: CampusKey) =>
      (
        await two.admin.query<{ user_id: string; listing_id: string }>(
          `SELECT user_id::text, listing_id::text FROM campus_${key}.alert_deliveries`,
        )
      ).rows;
    // The control: alpha's own alert matched it.
    expect(await deliveriesOf('alpha')).toContainEqual({
      user_id: alpha.buyer.id,
      listing_id: listingId,
    });
    expect((await deliveriesOf('beta')).filter((d) => d.listing_id === listingId)).toEqual([]);
    const mails = await readOutbox(two.t);
    // No mail to any of beta's addresses, from the start, names anything of alpha's (the
    // moderators' mails of alpha's reports included).
    const toBeta = mails.filter((m) => m.to.endsWith('@beta.example.edu'));
    expect(toBeta.length).toBeGreaterThan(0);
    const naming = (m: (typeof mails)[number]) =>
      /Marimbaphonic/.test(m.text + m.subject) ||
      alphaSecrets.some((secret) => `${m.subject}\n${m.text}\n${m.html}`.includes(secret));
    expect(toBeta.filter(naming)).toEqual([]);
  });

  it("mails a report on alpha's campus to alpha's moderators only, though one list names both", async () => {
    const subject = `A conversation about "${wordsOf('alpha').title}" was reported`;
    expect((await mailsTo(two.t, moderatorOf('alpha'))).map((m) => m.subject)).toContain(subject);
    expect((await mailsTo(two.t, moderatorOf('beta'))).map((m) => m.subject)).not.toContain(
      subject,
    );
  });
});
