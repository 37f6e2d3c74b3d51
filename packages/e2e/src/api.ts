import { request, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { CurrentUser } from '@campus-books/common/account.schemas';
import type { Listing } from '@campus-books/common/listing.schemas';

export const baseUrl = (): string => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the suite through playwright.config.ts');
  return url;
};

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    where: string,
  ) {
    super(`${where} answered ${status}: ${body.slice(0, 300)}`);
  }
}

async function jsonOf<T>(response: APIResponse, where: string): Promise<T> {
  if (!response.ok()) throw new ApiFailure(response.status(), await response.text(), where);
  return (await response.json()) as T;
}

const TUS_VERSION = { 'Tus-Resumable': '1.0.0' };
const CHUNK_BYTES = 256 * 1024;

/** One API client with its own cookie jar: one signed-in session, like one browser. */
export class Api {
  private constructor(readonly context: APIRequestContext) {}

  /** A client of the suite's server, or of the one at `url` (a spec's own server). */
  static async open(url: string = baseUrl()): Promise<Api> {
    return new Api(await request.newContext({ baseURL: url }));
  }

  get<T>(path: string): Promise<T> {
    return this.context.get(path).then((r) => jsonOf<T>(r, `GET ${path}`));
  }

  post<T>(path: string, data: unknown = {}): Promise<T> {
    return this.context.post(path, { data }).then((r) => jsonOf<T>(r, `POST ${path}`));
  }

  delete<T>(path: string, data?: unknown): Promise<T> {
    return this.context
      .delete(path, data === undefined ? {} : { data })
      .then((r) => jsonOf<T>(r, `DELETE ${path}`));
  }

  /** The raw answer, for tests about status codes. */
  raw(path: string): Promise<APIResponse> {
    return this.context.get(path);
  }

  signIn(email: string, password: string): Promise<CurrentUser> {
    return this.post<CurrentUser>('/api/auth/signin', { email, password });
  }

  /** Uploads an image over the tus protocol (docs/api/uploads.md); answers its stored URL. */
  async uploadImage(bytes: Buffer, filename = 'photo.jpg'): Promise<string> {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const created = await this.context.post('/api/uploads', {
      headers: {
        ...TUS_VERSION,
        'Upload-Length': String(bytes.length),
        'Upload-Metadata': `filename ${b64(filename)},filetype ${b64('image/jpeg')}`,
      },
    });
    const location = created.headers().location;
    if (created.status() !== 201 || !location) {
      throw new ApiFailure(created.status(), await created.text(), 'tus creation');
    }
    let last: APIResponse | undefined;
    for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
      last = await this.context.patch(location, {
        headers: {
          ...TUS_VERSION,
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
        },
        data: bytes.subarray(offset, offset + CHUNK_BYTES),
      });
      if (last.status() >= 300) break;
    }
    const done = await jsonOf<{ url: string }>(last!, 'tus PATCH');
    return done.url;
  }

  createListing(body: Record<string, unknown>): Promise<Listing> {
    return this.post<Listing>('/api/listing/create', body);
  }

  dispose(): Promise<void> {
    return this.context.dispose();
  }
}
