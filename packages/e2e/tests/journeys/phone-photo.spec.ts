import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_VARIANTS, imageIdFromUrl } from '@campus-books/common/images';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import sharp from 'sharp';
import { dataDir } from '../../src/env';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { hasExif, phonePhoto } from '../../src/images';
import { imagePicker, jpegFile, pickImages } from '../../src/picker';

test('a 4 MB phone photo is downscaled, uploaded with progress, and stored without EXIF', async ({
  page,
  request,
  makeUser,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await makeUser('photographer');
  const photo = await phonePhoto();
  expect(await hasExif(photo)).toBe(true);
  expect(photo.length).toBeGreaterThan(MAX_IMAGE_BYTES);

  // What the browser sends: the tus creation request declares the upload's length.
  const uploadLengths: number[] = [];
  page.on('request', (req) => {
    const length = req.headers()['upload-length'];
    if (req.method() === 'POST' && req.url().endsWith('/api/uploads') && length) {
      uploadLengths.push(Number(length));
    }
  });

  // A fast local upload may show its progress bar only briefly: record every state it shows.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { progressSeen: seen });
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[role="progressbar"], progress')) {
        const value = bar.getAttribute('aria-valuenow') ?? bar.getAttribute('value') ?? '';
        if (seen.at(-1) !== value) seen.push(value);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await signInBrowser(page, user, '/create-listing');
  const form = page.locator('form');
  const picker = imagePicker(form);
  await page.getByLabel('Name', { exact: true }).fill('campus photo book');
  await page.getByLabel('Course Number').fill('150');

  const started = Date.now();
  await pickImages(form, [jpegFile('IMG_2024.jpg', photo)]);
  await expect(picker.thumbnails).toHaveCount(1, { timeout: 60_000 });
  const pickToThumbnailMs = Date.now() - started;
  const progressSeen = await page.evaluate(
    () => (window as unknown as { progressSeen: string[] }).progressSeen,
  );

  const uploaded = uploadLengths.reduce((sum, n) => sum + n, 0);
  console.log(
    `[${testInfo.project.name}] phone photo: picked ${photo.length} bytes (4000x3000 JPEG with GPS), ` +
      `uploaded ${uploaded} bytes in ${uploadLengths.length} upload(s), ` +
      `pick to thumbnail ${pickToThumbnailMs} ms, progress values shown: ${progressSeen.join(' ')}`,
  );
  expect(progressSeen.length, 'a progress bar was shown').toBeGreaterThan(0);
  expect(uploadLengths).toHaveLength(1);
  expect(uploaded).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
  await expect(page.getByText('2 mb max per image')).toHaveCount(0);

  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
  const listingId = page.url().split('/').pop()!;
  const listing = await user.api.call('GET /api/listing/get/:id', { params: { id: listingId } });
  const imageUrl = listing.imageUrls[0]!;
  await expect(page.getByRole('main').locator('img[src^="/api/images/"]').first()).toBeVisible();

  // Every stored variant, as served and as kept on disk, has lost the EXIF (and so the GPS position).
  const id = imageIdFromUrl(imageUrl)!;
  for (const variant of IMAGE_VARIANTS) {
    const answer = await request.get(`/api/images/${id}/${variant}.webp`);
    expect(answer.status()).toBe(200);
    const bytes = await answer.body();
    expect(await hasExif(bytes), `${variant}.webp`).toBe(false);
    expect((await sharp(bytes).metadata()).format).toBe('webp');
  }
  const folder = path.join(dataDir(), 'uploads', 'images', id);
  const files = await readdir(folder);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    expect(await hasExif(await readFile(path.join(folder, file))), file).toBe(false);
  }
});
