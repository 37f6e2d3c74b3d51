import { request, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import {
  callRoute,
  type ApiAnswer,
  type ApiCallArguments,
  type ApiCallOptions,
  type RouteAnswer,
  type RouteInjector,
} from '@campus-books/common/call-route';

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

/**
 * Sends common's callRoute's requests in a Playwright request context (an Api's, or a page's
 * `page.request`), with its cookies.
 */
export function requestInjector(context: APIRequestContext): RouteInjector {
  return async ({ method, url, headers, payload }) => {
    const response = await context.fetch(url, {
      method,
      headers,
      ...(payload === undefined ? {} : { data: payload }),
    });
    // Each header as the server sent it: headers() joins several Set-Cookie lines with a line
    // break, which no Headers object accepts.
    const answerHeaders: Record<string, string[]> = {};
    for (const { name, value } of response.headersArray()) {
      (answerHeaders[name.toLowerCase()] ??= []).push(value);
    }
    return { statusCode: response.status(), headers: answerHeaders, body: await response.text() };
  };
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

  /** Sends common's callRoute's requests in this client's context, with its cookies. */
  private readonly inject: RouteInjector = (request) => requestInjector(this.context)(request);

  /**
   * Calls a route of the table (`'POST /api/listing/create'`), typed by its schemas, and answers its
   * data; a failure throws an ApiFailure with its status.
   */
  async call<Route extends ApiRouteKey>(
    route: Route,
    ...options: ApiCallArguments<Route>
  ): Promise<ApiAnswer<Route>> {
    const answer = await this.answer(route, ...options);
    if (!answer.ok) throw new ApiFailure(answer.status, answer.text, route);
    return answer.data;
  }

  /** The whole answer of a route of the table, a failure included: for tests about statuses. */
  answer<Route extends ApiRouteKey>(
    route: Route,
    ...options: ApiCallArguments<Route>
  ): Promise<RouteAnswer<Route>> {
    return callRoute(this.inject, route, ...options);
  }

  signIn(email: string, password: string) {
    return this.call('POST /api/auth/signin', { body: { email, password } });
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
    // The upload's last answer is tus's, outside the route table: its URL is checked here.
    if (!last!.ok()) throw new ApiFailure(last!.status(), await last!.text(), 'tus PATCH');
    const done: { url?: unknown } | null = await last!.json();
    if (typeof done?.url !== 'string') throw new ApiFailure(last!.status(), 'no url', 'tus PATCH');
    return done.url;
  }

  createListing(body: ApiCallOptions<'POST /api/listing/create'>['body']) {
    return this.call('POST /api/listing/create', { body });
  }

  dispose(): Promise<void> {
    return this.context.dispose();
  }
}
