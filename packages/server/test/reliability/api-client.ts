import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { sleep } from './processes';

export interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
  ms: number;
}

/** One HTTP call to a server process; a network failure answers status 0; never hangs past timeoutMs. */
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
  const signUp = await call(base, 'POST', '/api/auth/signup', {
    json: {
      firstName: 'Rel',
      lastName: 'Iable',
      email,
      password,
      groupmelink: 'https://groupme.com/x',
    },
  });
  if (signUp.status !== 201)
    throw new Error(`sign-up: ${signUp.status} ${JSON.stringify(signUp.body)}`);
  const token = await verificationToken(dataDir, email);
  await call(base, 'POST', '/api/auth/verify-email', { json: { token } });
  const signIn = await call(base, 'POST', '/api/auth/signin', { json: { email, password } });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
  if (signIn.status !== 200 || !cookie) throw new Error(`sign-in: ${signIn.status}`);
  return { cookie, id: String(signIn.body._id) };
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
export function listingBody(name: string, imageUrls: string[]) {
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
