import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ownServer, type OwnServer } from '../src/own-server';
import {
  openRoutePage,
  ROUTE_PAGES,
  startConversation,
  type RoutePageData,
} from '../src/route-pages';
import { createUser, deleteUser } from '../src/users';
import { settle } from '../src/page-check';
import { bookCover } from '../src/images';

/**
 * The product on a second campus: a fictional West-coast university on quarters, with its own name,
 * product name, schools, subjects, majors, meetup spots and colour (campus/examples/pacific-crest.yaml),
 * served by the same build. Every page of the route table, the manifest, the campus's stylesheet,
 * the OpenAPI document and every mail sent on the way must show none of the default campus.
 */
const CAMPUS_FILE = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  'server',
  'campus',
  'examples',
  'pacific-crest.yaml',
);

/** Words only the default campus (campus/default.yaml) and its product name use. */
const DEFAULT_CAMPUS_WORDS = [
  'Campus Books',
  'Richmond',
  'Boatwright',
  'Tyler Haynes',
  'Heilman',
  'Jepson',
  'Bschool',
  'Arts & Sciences',
  'Law and Prof',
  'Gottwald',
  '#2458c6',
];

function defaultCampusWordsIn(text: string): string[] {
  return DEFAULT_CAMPUS_WORDS.filter((word) => text.toLowerCase().includes(word.toLowerCase()));
}

test.describe('a second campus, from its configuration alone', () => {
  test.describe.configure({ mode: 'serial' });
  test.skip(({ viewport }) => (viewport?.width ?? 0) < 1000, 'one browser size: the laptop');

  let server: OwnServer;
  let data: RoutePageData;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await ownServer();
    await server.start({
      CAMPUS_CONFIG: CAMPUS_FILE,
      // The suite's students sign up at e2e.campus.edu: the setting wins over the campus file's domain.
      SCHOOL_EMAIL_DOMAIN: 'e2e.campus.edu',
      NODE_ENV: 'production',
    });
    const seller = await createUser('crestseller', server);
    const buyer = await createUser('crestbuyer', server);
    const cover = await seller.api.uploadImage(await bookCover());
    const listing = await seller.api.createListing({
      name: 'introduction to psychology',
      courseNumber: '101',
      subject: 'OCEA',
      major: 'Marine Biology',
      description: 'Ninth edition.',
      address: 'Redwood Plaza',
      condition: 'excellent',
      regularPrice: 30,
      discountPrice: 0,
      type: 'sale',
      schools: ['oceanSciences', 'engineering'],
      imageUrls: [cover],
    });
    expect(listing.schools).toEqual(['engineering', 'oceanSciences']);
    expect(listing.school).toBe('Tidewater School of Engineering, School of Ocean Sciences');
    const conversationId = await startConversation(buyer, listing);
    data = { seller, buyer, listing, conversationId };
  });

  test.afterAll(async () => {
    if (data) {
      await deleteUser(data.seller);
      await deleteUser(data.buyer);
    }
    await server?.dispose();
  });

  test('the API names the campus and refuses the default campus’s schools and subjects', async ({
    request,
  }) => {
    const campus = await (await request.get(`${server.url}/api/campus`)).json();
    expect(campus).toMatchObject({
      name: 'Pacific Crest University',
      timeZone: 'America/Los_Angeles',
    });
    const refused = await data.seller.api.context.post('/api/listing/create', {
      data: {
        name: 'Calculus',
        courseNumber: '101',
        subject: 'ECON',
        regularPrice: 10,
        schools: ['Jepson'],
        imageUrls: [data.listing.imageUrls[0]],
      },
    });
    expect(refused.status()).toBe(400);
    const body = JSON.stringify(await refused.json());
    expect(body).toContain('is not a school of this campus');
    const openApi = await (await request.get(`${server.url}/api/openapi.json`)).text();
    expect(openApi).toContain('Crest Textbook Exchange API');
    // The campus file's own defaults (GET /api/campus's schema) describe the file, not a campus.
    const withoutDefaults = openApi.replace(/"default":("[^"]*"|\{[^}]*\})/g, '');
    expect(defaultCampusWordsIn(withoutDefaults)).toEqual([]);
  });

  for (const pageCase of ROUTE_PAGES) {
    test(`${pageCase.name} shows the second campus, none of the default one`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      try {
        await openRoutePage(page, pageCase, data);
        await settle(page, pageCase.ready, pageCase);
        await pageCase.then?.(page);
        const shown = await page.evaluate(() =>
          [
            document.title,
            document.body.innerText,
            ...[...document.querySelectorAll('meta[content]')].map((m) =>
              m.getAttribute('content'),
            ),
          ].join('\n'),
        );
        expect(
          defaultCampusWordsIn(shown),
          `${pageCase.name}: words of the default campus`,
        ).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  test('the home and about pages name the second campus and its product', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/about');
    await expect(page.getByRole('main')).toContainText('Pacific Crest University');
    await expect(page).toHaveTitle(/Crest Textbook Exchange/);
    await context.close();
  });

  test("the header, the favicon and the installed app's icons show the campus's logo", async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/about');
    const logo = page.getByRole('banner').getByRole('img', { name: 'Pacific Crest University' });
    await expect(logo).toBeVisible();
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(favicon).toMatch(/^\/campus-icons\/favicon\.png\?v=/);
    const manifest = (await (await request.get(`${server.url}/manifest.webmanifest`)).json()) as {
      icons: { src: string }[];
    };
    expect(manifest.icons).toHaveLength(3);
    for (const href of [favicon!, ...manifest.icons.map((icon) => icon.src)]) {
      expect(href).toMatch(/^\/campus-icons\//);
      const icon = await request.get(`${server.url}${href}`);
      expect(icon.status(), href).toBe(200);
      expect(icon.headers()['content-type']).toBe('image/png');
    }
    await context.close();
  });

  test('the manifest, the stylesheet and every mail sent name none of the default campus', async ({
    request,
  }) => {
    const manifest = await (await request.get(`${server.url}/manifest.webmanifest`)).text();
    expect(manifest).toContain('Crest Textbook Exchange');
    expect(defaultCampusWordsIn(manifest)).toEqual([]);
    const css = await request.get(`${server.url}/campus.css`);
    if (css.ok()) expect(defaultCampusWordsIn(await css.text())).toEqual([]);
    const files = (await readdir(server.outboxDir)).filter((f) => f.endsWith('.eml'));
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const mail = await readFile(path.join(server.outboxDir, file), 'utf8');
      expect(defaultCampusWordsIn(mail), file).toEqual([]);
    }
  });
});
