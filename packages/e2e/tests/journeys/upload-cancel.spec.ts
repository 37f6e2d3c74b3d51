import type { Page } from '@playwright/test';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { imagePicker, jpegFile, pickImages, uploadImages } from '../../src/picker';

interface PreparationHold {
  isHeld: boolean;
  waiting: (() => void)[];
}
type Window = { preparationHold: PreparationHold };

/**
 * Makes preparing a picked photo (decoding it to downscale) wait for the test, as a large phone
 * photo takes seconds: createImageBitmap resolves only once released.
 */
async function holdPreparation(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const hold: PreparationHold = { isHeld: true, waiting: [] };
    Object.assign(window, { preparationHold: hold });
    const createImageBitmap = window.createImageBitmap.bind(window);
    window.createImageBitmap = (async (...args: Parameters<typeof createImageBitmap>) => {
      if (hold.isHeld) await new Promise<void>((resume) => hold.waiting.push(resume));
      return createImageBitmap(...args);
    }) as typeof window.createImageBitmap;
  });
}

const photosWaiting = (page: Page) =>
  page.evaluate(() => (window as unknown as Window).preparationHold.waiting.length);

const setHeld = (page: Page, isHeld: boolean) =>
  page.evaluate((held) => {
    const hold = (window as unknown as Window).preparationHold;
    hold.isHeld = held;
    if (!held) for (const resume of hold.waiting.splice(0)) resume();
  }, isHeld);

test('a photo cancelled while it is prepared, or whose page is left, is never uploaded', async ({
  page,
  makeUser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone journey');
  const seller = await makeUser('cancel-prep');
  // Each upload begins with one tus creation request, naming the file in its metadata.
  const uploaded: string[] = [];
  page.on('request', (request) => {
    const metadata = request.headers()['upload-metadata'];
    if (request.method() === 'POST' && request.url().endsWith('/api/uploads') && metadata) {
      const name = /(?:^|,)filename ([^,]+)/.exec(metadata)?.[1];
      uploaded.push(name ? Buffer.from(name, 'base64').toString() : '?');
    }
  });
  await holdPreparation(page);
  await signInBrowser(page, seller, '/create-listing');
  const form = page.locator('form');
  const uploads = page.getByRole('list', { name: 'Uploads in progress' });

  await test.step('Cancel while the photo is being prepared', async () => {
    await pickImages(form, [jpegFile('cancelled.jpg', await bookCover(10))]);
    await expect(uploads).toContainText('Preparing...');
    await expect.poll(() => photosWaiting(page)).toBe(1);
    await page.getByRole('button', { name: 'Cancel cancelled.jpg' }).click();
    await expect(uploads).toHaveCount(0);
    await setHeld(page, false);
    await expect.poll(() => photosWaiting(page)).toBe(0);
    // Another photo goes all the way; the cancelled one never started, nor joined the listing.
    await uploadImages(form, [jpegFile('kept.jpg', await bookCover(20))], 1);
    await expect(uploads).toHaveCount(0);
    expect(uploaded).toEqual(['kept.jpg']);
  });

  await test.step('leave the page while the photo is being prepared', async () => {
    await setHeld(page, true);
    await pickImages(form, [jpegFile('left-behind.jpg', await bookCover(30))]);
    await expect.poll(() => photosWaiting(page)).toBe(1);
    const footer = page.getByRole('navigation', { name: 'Footer' });
    await footer.getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await setHeld(page, false);
    await expect.poll(() => photosWaiting(page)).toBe(0);
    // Back on the form (its draft keeps kept.jpg), a photo goes all the way; the one left behind
    // never started.
    await footer.getByRole('link', { name: 'Sell Books' }).click();
    await expect(imagePicker(form).fileInput).toBeAttached();
    await pickImages(form, [jpegFile('new-form.jpg', await bookCover(40))]);
    await expect.poll(() => uploaded.includes('new-form.jpg')).toBe(true);
    await expect(uploads).toHaveCount(0, { timeout: 30_000 });
    expect(uploaded).toEqual(['kept.jpg', 'new-form.jpg']);
  });
});
