import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A FAKE of the book providers for tests: one local HTTP server answering as Open Library's Books API
 * and Google Books' volumes search do (the shapes of their documentation), plus cover images. No
 * test ever reaches the internet.
 */
export const FAKE_ISBNS = {
  /** Open Library knows it, with a cover. */
  hit: '9780262033848',
  /** Open Library does not know it; Google Books does, with a cover. */
  googleOnly: '9780306406157',
  /** Neither knows it. */
  miss: '9780000000019',
  /** Open Library answers 429 Too Many Requests. */
  rateLimited: '9780000000026',
  /** Open Library answers something that is not its JSON. */
  malformed: '9780000000033',
  /** Open Library does not answer within the lookup's timeout. */
  slow: '9780000000040',
  /** Open Library answers as it does for `hit`, but only once the test calls `releaseGated()`. */
  gated: '9780000000088',
  /** Open Library's cover id leads to a redirect to another host. */
  coverRedirects: '9780000000057',
  /** Open Library's cover is no image. */
  coverNotImage: '9780000000064',
  /** Open Library's cover is an image of too many pixels. */
  coverTooManyPixels: '9780000000071',
} as const;

const OPEN_LIBRARY_BOOKS: Record<string, object> = {
  [FAKE_ISBNS.hit]: {
    bib_key: `ISBN:${FAKE_ISBNS.hit}`,
    info_url: 'https://openlibrary.org/books/OL22714466M/Introduction_to_Algorithms',
    preview: 'noview',
    thumbnail_url: 'https://covers.openlibrary.org/b/id/6297316-S.jpg',
    details: {
      title: 'Introduction to Algorithms',
      authors: [
        { key: '/authors/OL2644014A', name: 'Thomas H. Cormen' },
        { key: '/authors/OL1757887A', name: 'Charles E. Leiserson' },
      ],
      publishers: ['MIT Press'],
      publish_date: '2009',
      edition_name: '3rd ed.',
      isbn_13: [FAKE_ISBNS.hit],
      covers: [6297316],
    },
  },
  [FAKE_ISBNS.coverRedirects]: { details: { title: 'Redirecting Cover', covers: [1001] } },
  [FAKE_ISBNS.coverNotImage]: { details: { title: 'Text Cover', covers: [1002] } },
  [FAKE_ISBNS.coverTooManyPixels]: { details: { title: 'Huge Cover', covers: [1003] } },
};

export interface FakeBookProviders {
  url: string;
  /** Requests received per path (without the query string), e.g. '/api/books'. */
  requests: Map<string, number>;
  /** Answers the held requests for `FAKE_ISBNS.gated`, as for `hit`. */
  releaseGated(): void;
  /** Configuration pointing the app at this server (Google Books with a key). */
  env: Record<string, string>;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startFakeBookProviders(port = 0): Promise<FakeBookProviders> {
  const requests = new Map<string, number>();
  const held: ServerResponse[] = [];
  const gated: ServerResponse[] = [];
  const cover = await sharp({
    create: { width: 300, height: 450, channels: 3, background: { r: 160, g: 30, b: 40 } },
  })
    .jpeg()
    .toBuffer();
  // 10 000 x 10 000 pixels, compressed to a few kilobytes: refused for its pixels, not its bytes.
  const hugeCover = await sharp({
    create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();

  let base = '';
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    if (url.pathname === '/api/books') {
      const isbn = (url.searchParams.get('bibkeys') ?? '').replace(/^ISBN:/, '');
      if (isbn === FAKE_ISBNS.rateLimited) return json(res, 429, { error: 'Too Many Requests' });
      if (isbn === FAKE_ISBNS.malformed) return json(res, 200, '<html>Service unavailable</html>');
      if (isbn === FAKE_ISBNS.slow) return void held.push(res);
      if (isbn === FAKE_ISBNS.gated) return void gated.push(res);
      const book = OPEN_LIBRARY_BOOKS[isbn];
      return json(res, 200, book ? { [`ISBN:${isbn}`]: book } : {});
    }
    if (url.pathname === '/books/v1/volumes') {
      const isbn = (url.searchParams.get('q') ?? '').replace(/^isbn:/, '');
      if (!url.searchParams.get('key')) return json(res, 403, { error: { code: 403 } });
      if (isbn !== FAKE_ISBNS.googleOnly)
        return json(res, 200, { kind: 'books#volumes', totalItems: 0 });
      return json(res, 200, {
        kind: 'books#volumes',
        totalItems: 1,
        items: [
          {
            kind: 'books#volume',
            id: 'fake123',
            volumeInfo: {
              title: 'Calculus, 8th Edition',
              authors: ['James Stewart'],
              publisher: 'Cengage Learning',
              publishedDate: '2015-02-01',
              industryIdentifiers: [{ type: 'ISBN_13', identifier: isbn }],
              imageLinks: {
                smallThumbnail: `${base}/books/content?id=fake123&printsec=frontcover&img=1&zoom=5`,
                thumbnail: `${base}/books/content?id=fake123&printsec=frontcover&img=1&zoom=1`,
              },
            },
          },
        ],
      });
    }
    if (url.pathname === '/books/content' || url.pathname === '/b/id/6297316-L.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end(cover);
    }
    if (url.pathname === '/b/id/1001-L.jpg') {
      res.writeHead(302, { location: 'http://example.com/cover.jpg' });
      return res.end();
    }
    if (url.pathname === '/b/id/1002-L.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end('<html>not a cover</html>');
    }
    if (url.pathname === '/b/id/1003-L.jpg') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(hugeCover);
    }
    if (url.pathname === '/health') return json(res, 200, { ok: true });
    json(res, 404, { error: 'not found' });
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    releaseGated: () => {
      for (const res of gated.splice(0)) {
        json(res, 200, { [`ISBN:${FAKE_ISBNS.gated}`]: OPEN_LIBRARY_BOOKS[FAKE_ISBNS.hit] });
      }
    },
    env: {
      BOOK_LOOKUP: 'on',
      OPEN_LIBRARY_URL: base,
      OPEN_LIBRARY_COVERS_URL: base,
      GOOGLE_BOOKS_URL: base,
      GOOGLE_BOOKS_COVERS_URL: base,
      GOOGLE_BOOKS_API_KEY: 'fake-key',
    },
    close: async () => {
      for (const res of [...held, ...gated]) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
