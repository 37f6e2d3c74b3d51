import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import {
  callRoute,
  fetchInjector,
  type ApiCallArguments,
  type ApiCallOptions,
  type RouteAnswer,
  type RouteInjector,
} from '@campus-books/common/call-route';
import { sleep } from './processes';

type ListingBody = ApiCallOptions<'POST /api/listing/create'>['body'];

export interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
  ms: number;
}

/**
 * A server process as common's callRoute's target: never hangs past timeoutMs, and a network
 * failure (the process killed, a timeout) is an answer of status 0, as a load generator counts it.
 */
export function processTarget(base: string, timeoutMs = 15_000): RouteInjector {
  const send = fetchInjector(base);
  return async (request) => {
    try {
      return await send({ ...request, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      return { statusCode: 0, headers: {}, body: (error as Error).message };
    }
  };
}

/** A route of the table called on a server process (see processTarget), with its time in ms. */
export async function callApi<Route extends ApiRouteKey>(
  base: string,
  route: Route,
  ...options: ApiCallArguments<Route>
): Promise<RouteAnswer<Route> & { ms: number }> {
  const started = performance.now();
  const answer = await callRoute(processTarget(base), route, ...options);
  return { ...answer, ms: performance.now() - started };
}

/**
 * One HTTP call to a server process, for what the route table does not type (tus, health, a
 * malformed request); a network failure answers status 0; never hangs past timeoutMs.
 */
export async function call(
  base: string,
  method: string,
  url: string,
  options: {
    cookie?: string;
    json?: unknown;
    headers?: Record<string, string>;
    body?: Buffer;
    timeoutMs?: number;
  } = {},
): Promise<Answer & { headers: Headers }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let body: Answer['body'] = {};
    try {
      body = text ? (JSON.parse(text) as Answer['body']) : {};
    } catch {
      body = { message: text };
    }
    return { status: res.status, body, ms: performance.now() - started, headers: res.headers };
  } catch (error) {
    return {
      status: 0,
      body: { message: (error as Error).message },
      ms: performance.now() - started,
      headers: new Headers(),
    };
  }
}

async function verificationToken(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  for (let i = 0; i < 200; i++) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files) {
      const raw = await readFile(path.join(outbox, file), 'utf8');
      if (!raw.includes(email)) continue;
      const token = /verify-email\/([A-Za-z0-9_-]+)/.exec(raw.replace(/=\r?\n/g, ''))?.[1];
      if (token) return token;
    }
    await sleep(50);
  }
  throw new Error(`no verification mail for ${email}`);
}

/** Signs up through the API, uses the mailed link from DATA_DIR/outbox, signs in: a session cookie. */
export async function signUpVerified(
  base: string,
  dataDir: string,
): Promise<{ cookie: string; id: string }> {
  const email = `rel.${randomUUID().slice(0, 8)}@richmond.edu`;
  const password = 'Reliable-123';
  const signUp = await callApi(base, 'POST /api/auth/signup', {
    body: {
      firstName: 'Rel',
      lastName: 'Iable',
      email,
      password,
      groupmelink: 'https://groupme.com/x',
    },
  });
  if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${signUp.text}`);
  const token = await verificationToken(dataDir, email);
  await callApi(base, 'POST /api/auth/verify-email', { body: { token } });
  const signIn = await callApi(base, 'POST /api/auth/signin', { body: { email, password } });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
  if (!signIn.ok || !cookie) throw new Error(`sign-in: ${signIn.status}`);
  return { cookie, id: signIn.data._id };
}

/** A small real JPEG, different each time. */
export async function photo(seed: number): Promise<Buffer> {
  return sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: seed % 255, g: 80, b: 160 } },
  })
    .jpeg()
    .toBuffer();
}

/** A whole tus upload (create + one PATCH); answers the processing result (url on success). */
export async function upload(
  base: string,
  cookie: string,
  bytes: Buffer,
): Promise<Answer & { url?: string }> {
  const created = await call(base, 'POST', '/api/uploads', {
    cookie,
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `filename ${Buffer.from('p.jpg').toString('base64')},filetype ${Buffer.from('image/jpeg').toString('base64')}`,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) return created;
  const url = location.startsWith('http') ? new URL(location).pathname : location;
  const sent = await call(base, 'PATCH', url, {
    cookie,
    headers: {
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: bytes,
  });
  return { ...sent, url: typeof sent.body.url === 'string' ? sent.body.url : undefined };
}

/** A listing body the create form would send. */
export function listingBody(name: string, imageUrls: string[]): ListingBody {
  return {
    name,
    courseNumber: '101',
    description: 'reliability test',
    address: 'Library',
    condition: 'good',
    regularPrice: 20,
    discountPrice: 0,
    imageUrls,
    major: '',
  };
}
