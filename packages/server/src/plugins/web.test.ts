import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  createWebTestApp,
  TEST_ENGINE,
  TEST_WEB_SHELL,
  type TestApp,
} from '../../test/helpers';
import { withCampusElement } from './web-campus';
import { campusShell } from './web-campus';
import { insertListings } from '../../test/listing-fixtures';

/** The built shell as the server answers it: naming its campus, and carrying it. */
function plainShell(t: TestApp): string {
  const campus = t.config.campus;
  return withCampusElement(campusShell(TEST_WEB_SHELL, campus), campus);
}

/** The real app serving a small built web app from a temporary folder. */
function createWebApp(): Promise<TestApp> {
  return createWebTestApp(
    { 'index.html': TEST_WEB_SHELL, 'assets/app-1234.js': 'console.log(1)' },
    { PUBLIC_URL: 'https://books.example.edu' },
  );
}

describe(`web shell: Open Graph tags on /listing/{id} (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let bookId: string;
  let trickyId: string;
  let storedPhotoId: string;
  const PHOTO = '0b4e5f2a-8c1d-4e7b-9a3f-2d6c8e1f4a5b';
  beforeAll(async () => {
    t = await createWebApp();
    const seller = await createUser(t);
    [bookId, trickyId, storedPhotoId] = (await insertListings(t, seller.id, [
      {
        name: 'Calculus: Early Transcendentals',
        regularPrice: 1234.5,
        condition: 'excellent',
        imageUrls: ['/api/images/cover-1/large.webp', 'https://cdn.example.edu/2.jpg'],
      },
      {
        name: `<script>alert("x")</script> & 'Co'`,
        regularPrice: 5,
        condition: 'mint',
        imageUrls: ['https://cdn.example.edu/a.jpg?x="><script>'],
      },
      { name: 'Stored photo', imageUrls: [`/api/images/${PHOTO}/1280.webp`] },
    ])) as [string, string, string];
  });
  afterAll(() => t.close());

  const metaContent = (html: string, key: string) =>
    html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`))?.[1];

  it('puts the title, price, condition, cover and link of the book in the head', async () => {
    const res = await t.app.inject(`/listing/${bookId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<title>Calculus: Early Transcendentals · Campus Books</title>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(metaContent(head, 'og:title')).toBe('Calculus: Early Transcendentals');
    expect(metaContent(head, 'og:description')).toBe('$1,234.50 · Excellent condition');
    expect(metaContent(head, 'og:image')).toBe(
      'https://books.example.edu/api/images/cover-1/large.webp',
    );
    expect(metaContent(head, 'og:url')).toBe(`https://books.example.edu/listing/${bookId}`);
    expect(metaContent(head, 'og:type')).toBe('website');
    expect(metaContent(head, 'twitter:card')).toBe('summary_large_image');
    expect(html).toContain('<div id="root"></div>');
  });

  it('preloads the main photo of the page at the width the gallery will pick', async () => {
    const html = (await t.app.inject(`/listing/${storedPhotoId}`)).body;
    const head = html.slice(0, html.indexOf('</head>'));
    const preload = /<link rel="preload" as="image" ([^>]*)\/>/.exec(head)?.[1] ?? '';
    expect(preload).toContain(`href="/api/images/${PHOTO}/640.webp"`);
    expect(preload).toContain(`/api/images/${PHOTO}/480.webp 480w`);
    expect(preload).toContain(`/api/images/${PHOTO}/960.webp 960w`);
    expect(preload).toContain('imagesizes="(min-width: 1152px) 544px');
    // Photos stored elsewhere have no variants to choose from: no preload.
    expect((await t.app.inject(`/listing/${bookId}`)).body).not.toContain('rel="preload"');
  });

  it('shows the name capitalised in the link preview, as everywhere else', async () => {
    const seller = await createUser(t);
    const [id] = await insertListings(t, seller.id, [{ name: 'introduction to psychology' }]);
    const html = (await t.app.inject(`/listing/${id}`)).body;
    expect(metaContent(html, 'og:title')).toBe('Introduction To Psychology');
    expect(html).toContain('<title>Introduction To Psychology · Campus Books</title>');
  });

  it('escapes every value', async () => {
    const html = (await t.app.inject(`/listing/${trickyId}`)).body;
    expect(html).not.toContain('<script>');
    expect(metaContent(html, 'og:title')).toBe(
      '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;Co&#39;',
    );
    expect(metaContent(html, 'og:image')).toBe(
      'https://cdn.example.edu/a.jpg?x=%22%3E%3Cscript%3E',
    );
    expect(html).toContain(
      '<title>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;Co&#39; · Campus Books</title>',
    );
  });

  it('answers the plain shell for an unknown or malformed id', async () => {
    for (const id of ['0c2f6f4e-5b0a-4b7e-8f3a-9d1e2c3b4a59', 'not-an-id']) {
      const res = await t.app.inject(`/listing/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(plainShell(t));
    }
  });

  it('keeps serving the shell, the assets and API errors as before', async () => {
    expect((await t.app.inject('/search?searchTerm=x')).body).toBe(plainShell(t));
    expect((await t.app.inject('/assets/app-1234.js')).body).toBe('console.log(1)');
    const api = await t.app.inject('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false });
    expect((await t.app.inject('/robots.txt')).statusCode).toBe(404);
  });
});
