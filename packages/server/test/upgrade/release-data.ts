import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { call, upload } from '../reliability/api-client';

/**
 * Test support for the upgrade test: data of every kind the previous release (0.2.0) keeps, made
 * through its own HTTP API, and what a student and a moderator see of it (read again after the
 * upgrade and after a restore: the two must match).
 */

const PASSWORD = 'Upgrade-123'; // 0.2.0 took passwords of 8 to 12 characters

export interface Account {
  id: string;
  email: string;
  /** The session cookie the previous release set at sign-in. */
  cookie: string;
}

export interface ReleaseData {
  seller: Account;
  buyer: Account;
  moderator: Account;
  /** Listed, sold, and removed by a moderator after a report. */
  listings: { listed: string; sold: string; removed: string };
  /** The duplicate pair the previous release allowed: the older one paused, the newer one live. */
  alertPair: { paused: string; live: string };
  otherAlert: string;
}

/** The moderator's address: MODERATOR_EMAILS of every server of the test, old and new. */
export const moderatorEmail = (tag: string) => `moderator.${tag}@richmond.edu`;

function ok(what: string, answer: { status: number; body: unknown }, expected = [200, 201]) {
  if (!expected.includes(answer.status)) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body as Record<string, unknown>;
}

async function verificationToken(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  for (let i = 0; i < 400; i++) {
    for (const file of await readdir(outbox).catch(() => [] as string[])) {
      if (!file.endsWith('.eml')) continue; // a mail being written is `.eml.part` until renamed
      const raw = (await readFile(path.join(outbox, file), 'utf8')).replace(/=\r?\n/g, '');
      if (!raw.includes(email)) continue;
      const token = /verify-email\/([A-Za-z0-9_-]+)/.exec(raw)?.[1];
      if (token) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no verification mail for ${email} in ${outbox}`);
}

/** Sign-up, the link from the outbox (DATA_DIR/outbox), sign-in: a verified student's session. */
async function signUp(base: string, dataDir: string, email: string, first: string) {
  ok(
    `sign-up ${email}`,
    await call(base, 'POST', '/api/auth/signup', {
      json: {
        firstName: first,
        lastName: 'Upgrade',
        email,
        password: PASSWORD,
        groupmelink: `https://groupme.com/contact/${first.toLowerCase()}`,
      },
    }),
  );
  const token = await verificationToken(dataDir, email);
  ok('verify', await call(base, 'POST', '/api/auth/verify-email', { json: { token } }));
  const signIn = await call(base, 'POST', '/api/auth/signin', {
    json: { email, password: PASSWORD },
  });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
  if (signIn.status !== 200 || !cookie) throw new Error(`sign-in ${email}: ${signIn.status}`);
  return { id: String(signIn.body._id), email, cookie };
}

/** A real photo (a gradient under noise), different for each seed, sent over tus. */
async function uploadPhoto(base: string, cookie: string, seed: number): Promise<string> {
  const bytes = await sharp({
    create: {
      width: 900,
      height: 700,
      channels: 3,
      background: { r: (seed * 67) % 255, g: 90, b: 200 - seed * 20 },
      noise: { type: 'gaussian', mean: 120, sigma: 30 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const sent = await upload(base, cookie, bytes);
  if (!sent.url) throw new Error(`upload: ${sent.status} ${JSON.stringify(sent.body)}`);
  return sent.url;
}

const listingBody = (name: string, courseNumber: string, imageUrl: string, price: number) => ({
  name,
  courseNumber,
  description: `Kept through the upgrade: ${name}`,
  address: 'Boatwright Library',
  condition: 'excellent',
  regularPrice: price,
  discountPrice: 0,
  imageUrls: [imageUrl],
  major: 'Mathematics',
  type: 'sale',
});

/** Students, listings with photos, saved listings, alerts (a duplicate pair), reports, moderation. */
export async function fillPreviousRelease(
  base: string,
  dataDir: string,
  tag: string,
): Promise<ReleaseData> {
  const unique = randomUUID().slice(0, 6);
  const seller = await signUp(base, dataDir, `seller.${unique}@richmond.edu`, 'Ada');
  const buyer = await signUp(base, dataDir, `buyer.${unique}@richmond.edu`, 'Ben');
  const moderator = await signUp(base, dataDir, moderatorEmail(tag), 'Mia');

  // The buyer's alerts first, so the listings below are matched (and their mail rows written).
  const alert = async (body: Record<string, unknown>) =>
    String(
      ok(
        'alert',
        await call(base, 'POST', '/api/alerts/create', { cookie: buyer.cookie, json: body }),
      )._id,
    );
  const filters = { searchTerm: 'Linear Algebra', subject: 'MATH', courseNumber: '211' };
  const paused = await alert({ ...filters, paused: true });
  const live = await alert({ ...filters, paused: false, digest: true });
  const otherAlert = await alert({ searchTerm: 'Organic Chemistry', maxPrice: 40 });

  const create = async (name: string, course: string, price: number, seed: number) => {
    const imageUrl = await uploadPhoto(base, seller.cookie, seed);
    const body = listingBody(name, course, imageUrl, price);
    const answer = await call(base, 'POST', '/api/listing/create', {
      cookie: seller.cookie,
      json: body,
    });
    return String(ok(`listing ${name}`, answer)._id);
  };
  const listed = await create('Linear Algebra and Its Applications', '211', 35, 1);
  const sold = await create('Linear Algebra Done Right', '211', 28.5, 2);
  const removed = await create('Organic Chemistry, 9th edition', '205', 39.99, 3);
  ok(
    'sold',
    await call(base, 'POST', `/api/listing/mark-as-sold/${sold}`, { cookie: seller.cookie }),
  );

  // Settings: the seller's profile (name, GroupMe link, avatar photo).
  const avatar = await uploadPhoto(base, seller.cookie, 4);
  ok(
    'profile',
    await call(base, 'POST', `/api/user/update/${seller.id}`, {
      cookie: seller.cookie,
      json: {
        username: 'Ada L. Upgrade',
        groupmelink: 'https://groupme.com/contact/ada-after',
        avatar,
      },
    }),
  );

  for (const id of [listed, removed]) {
    ok('save', await call(base, 'POST', `/api/saved/add/${id}`, { cookie: buyer.cookie }));
    ok(
      'report',
      await call(base, 'POST', `/api/reports/${id}`, {
        cookie: buyer.cookie,
        json: { reason: 'spam_or_scam', note: `Reported before the upgrade (${id.slice(0, 8)})` },
      }),
    );
  }
  ok(
    'moderation',
    await call(base, 'POST', `/api/moderation/listings/${removed}/remove`, {
      cookie: moderator.cookie,
      json: { reason: 'The same photo as another seller: removed before the upgrade' },
    }),
  );
  return {
    seller,
    buyer,
    moderator,
    listings: { listed, sold, removed },
    alertPair: { paused, live },
    otherAlert,
  };
}

const sha256 = (bytes: ArrayBuffer) =>
  createHash('sha256').update(Buffer.from(bytes)).digest('hex');

async function read(base: string, url: string, cookie?: string) {
  const answer = await call(base, 'GET', url, cookie ? { cookie } : {});
  return { status: answer.status, body: answer.body };
}

async function imageHashes(base: string, url: string) {
  const hashes: Record<string, string> = {};
  for (const width of ['320', '1280']) {
    const variant = url.replace(/\/\d+\.webp$/, `/${width}.webp`);
    const res = await fetch(`${base}${variant}`);
    if (!res.ok) throw new Error(`${variant}: ${res.status}`);
    hashes[width] = sha256(await res.arrayBuffer());
  }
  return hashes;
}

const pick = (body: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((key) => [key, body[key]]));

/**
 * What the students and the moderator see, through the API with the sessions the previous release
 * signed: profiles, listings, the photos' bytes, alerts, saved listings, the moderation log and queue.
 */
export async function observe(base: string, data: ReleaseData) {
  const me = async (account: Account): Promise<Record<string, unknown>> => {
    const answer = await read(base, '/api/auth/me', account.cookie);
    return {
      status: answer.status,
      ...pick(answer.body, ['_id', 'username', 'email', 'groupmelink', 'avatar', 'emailVerified']),
    };
  };
  const listing = async (id: string): Promise<Record<string, unknown>> => {
    const answer = await read(base, `/api/listing/get/${id}`);
    return {
      answered: answer.status,
      ...(answer.status === 200
        ? pick(answer.body, ['_id', 'name', 'courseNumber', 'regularPrice', 'status', 'imageUrls'])
        : {}),
    };
  };
  const seller = await me(data.seller);
  const listings = {
    listed: await listing(data.listings.listed),
    sold: await listing(data.listings.sold),
    removed: await listing(data.listings.removed),
  };
  const photos: Record<string, Record<string, string>> = {};
  for (const entry of [listings.listed, listings.sold]) {
    for (const url of (entry.imageUrls as string[] | undefined) ?? []) {
      photos[url] = await imageHashes(base, url);
    }
  }
  if (typeof seller.avatar === 'string')
    photos[seller.avatar] = await imageHashes(base, seller.avatar);
  const alerts = await read(base, '/api/alerts/get', data.buyer.cookie);
  const saved = await read(base, '/api/saved/get', data.buyer.cookie);
  const log = await read(base, '/api/moderation/log', data.moderator.cookie);
  const queue = await read(base, '/api/moderation/queue', data.moderator.cookie);
  const list = (body: unknown) => (Array.isArray(body) ? (body as Record<string, unknown>[]) : []);
  return {
    seller,
    buyer: await me(data.buyer),
    moderator: await me(data.moderator),
    listings,
    photos,
    alerts: {
      status: alerts.status,
      items: list(alerts.body).map((a) =>
        pick(a, ['_id', 'searchTerm', 'subject', 'courseNumber', 'maxPrice', 'paused', 'digest']),
      ),
    },
    saved: {
      status: saved.status,
      ids: list(saved.body)
        .map((l) => l._id)
        .sort(),
    },
    moderationLog: {
      status: log.status,
      entries: list(log.body).map((e) => pick(e, ['action', 'reason', 'listingId'])),
    },
    moderationQueue: {
      status: queue.status,
      listings: list(queue.body).map(
        (item) => (item.listing as Record<string, unknown> | undefined)?._id,
      ),
    },
  };
}

export type Observation = Awaited<ReturnType<typeof observe>>;

/**
 * What the new release must show of `before`: all of it, except that the duplicate pair is one
 * alert, the live one (docs/operations.md "Upgrades", migration 0018), and that a listing a
 * moderator removed is out of the buyer's saved list (the visibility rule since 0.3.0; the saved
 * row stays, counted with the others, and shows again if a moderator puts the listing back).
 */
export function expectedAfterUpgrade(before: Observation, data: ReleaseData): Observation {
  return {
    ...before,
    alerts: {
      ...before.alerts,
      items: before.alerts.items.filter((a) => a._id !== data.alertPair.paused),
    },
    saved: { ...before.saved, ids: before.saved.ids.filter((id) => id !== data.listings.removed) },
  };
}
