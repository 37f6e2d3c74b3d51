import { chromiumFlags, PAGE_CHROMIUM } from '../../playwright.config';
import { barcodePhoto } from '../../src/barcode';
import { expect, isPhone, test } from '../../src/fixtures';

/** The fake providers' Google-only book (test/support/fake-book-providers.ts "googleOnly"). */
const ISBN = '9780306406157';

// A fake camera that films no barcode: the still photo is what reads it.
test.use({
  launchOptions: {
    executablePath: PAGE_CHROMIUM,
    args: [
      ...chromiumFlags,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  },
  permissions: ['camera'],
});

test('on the search page, a photo of the barcode searches for its ISBN; the WebAssembly is ours', async ({
  page,
}) => {
  const wasm: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasm.push(request.url());
  });
  await page.goto('/search');
  if (isPhone(page)) await page.getByRole('button', { name: 'Search filters' }).click();
  await page.getByRole('button', { name: 'Scan ISBN' }).click();
  await page.getByLabel('Take a photo of the barcode').setInputFiles({
    name: 'barcode.jpg',
    mimeType: 'image/jpeg',
    buffer: await barcodePhoto(ISBN),
  });
  await expect(page).toHaveURL(new RegExp(`searchTerm=${ISBN}`), { timeout: 20_000 });
  // The polyfill's WebAssembly came from this server, never a CDN.
  expect(wasm.length).toBeGreaterThan(0);
  for (const url of wasm) expect(new URL(url).origin).toBe(new URL(page.url()).origin);
});
