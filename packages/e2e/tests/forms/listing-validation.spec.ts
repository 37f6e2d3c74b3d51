import { MESSAGES } from '@campus-books/common/messages';
import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { imagePicker, jpegFile, pickImages, uploadImages } from '../../src/picker';
import { createListing } from '../../src/users';

test('create listing shows the field messages', async ({ page, makeUser }) => {
  const user = await makeUser('lister');
  await signInBrowser(page, user, '/create-listing');
  const submit = page.getByRole('button', { name: 'Create listing' });
  await page.getByLabel('Regular price ($)').fill('');
  await submit.click();
  await expect(page.getByText(MESSAGES.nameRequired)).toBeVisible();
  await expect(page.getByText(MESSAGES.courseNumberRequired)).toBeVisible();
  await expect(page.getByText(MESSAGES.priceRequired)).toBeVisible();
  await expect(page.getByText(MESSAGES.imagesRequired)).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('x'.repeat(63));
  await page.getByLabel('Regular price ($)').fill('10000001');
  await submit.click();
  await expect(page.getByText(MESSAGES.nameTooLong)).toBeVisible();
  await expect(page.getByText(MESSAGES.priceRange)).toBeVisible();
  await page.getByLabel('Regular price ($)').fill('-1');
  await submit.click();
  await expect(page.getByText(MESSAGES.priceRange)).toBeVisible();
  await expect(page).toHaveURL(/\/create-listing$/);
});

test('create listing says a photo is required before any submit, and a picked photo uploads at once', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('photofirst');
  await signInBrowser(page, user, '/create-listing');
  const form = page.locator('form');
  const picker = imagePicker(form);
  // Stated from the start and tied to the file input, not learnt from a refused submit.
  await expect(page.getByLabel('Choose images')).toHaveAccessibleDescription(
    /^At least one photo is required\./,
  );
  await expect(page.getByText(MESSAGES.imagesRequired)).toHaveCount(0);
  // Choosing the file is enough: no Upload button to find and press.
  await expect(picker.uploadButton).toHaveCount(0);
  await picker.fileInput.setInputFiles([jpegFile('cover.jpg', await bookCover(60))]);
  await expect(picker.thumbnails).toHaveCount(1, { timeout: 30_000 });
});

test('the image picker refuses a fourth image on create and a non-image file', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('picker');
  await signInBrowser(page, user, '/create-listing');
  const form = page.locator('form');
  const covers = await Promise.all([1, 2, 3, 4].map((n) => bookCover(n * 70)));
  await pickImages(
    form,
    covers.map((c, n) => jpegFile(`cover-${n}.jpg`, c)),
  );
  await expect(page.getByText(MESSAGES.imagesOnCreate)).toBeVisible();
  await expect(imagePicker(form).thumbnails).toHaveCount(0);

  await pickImages(form, [
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') },
  ]);
  await expect(page.getByText(MESSAGES.imageType)).toBeVisible();
  await expect(imagePicker(form).thumbnails).toHaveCount(0);

  await uploadImages(
    form,
    covers.slice(0, 3).map((c, n) => jpegFile(`c${n}.jpg`, c)),
    3,
  );
});

test("update listing: six images at most; the discount rule is the server's", async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('updater');
  const listing = await createListing(user, { name: 'statistics', courseNumber: '210' });
  await signInBrowser(page, user, `/update-listing/${listing._id}`);
  const form = page.locator('form');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('statistics');
  const covers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => bookCover(n * 50)));
  await pickImages(
    form,
    covers.map((c, n) => jpegFile(`more-${n}.jpg`, c)),
  );
  await expect(page.getByText(MESSAGES.imagesPerListing)).toBeVisible();

  // The form has no discount field; the server still refuses a discount above the price.
  const refused = await user.api.context.post(`/api/listing/update/${listing._id}`, {
    data: {
      name: listing.name,
      courseNumber: listing.courseNumber,
      imageUrls: listing.imageUrls,
      regularPrice: 5,
      discountPrice: 10,
    },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain(MESSAGES.discountAboveRegular);
});

test('the server refuses an image over 2 MB with the spec message', async ({ makeUser }) => {
  // The picker downscales big photos first, so only another client can meet this limit.
  const user = await makeUser('bigfile');
  const refused = await user.api.context.post('/api/uploads', {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(MAX_IMAGE_BYTES + 1),
      'Upload-Metadata': `filename ${Buffer.from('big.jpg').toString('base64')}`,
    },
  });
  expect(refused.status()).toBe(413);
  expect(await refused.json()).toMatchObject({ success: false, message: MESSAGES.imageTooLarge });
});
