import { imageIdFromUrl, imageUrl } from '@campus-books/common/images';
import { expect, test } from '../../src/fixtures';
import { hasExif, phonePhoto } from '../../src/images';
import { expectNoAxeViolations } from '../../src/page-check';
import { jpegFile } from '../../src/picker';
import { openBrowser, runOnceFromLaptop } from '../../src/two-browsers';
import { createListing } from '../../src/users';

runOnceFromLaptop();

test('a buyer on a phone sends a photo of the book; the seller sees it live, full screen, without its GPS', async ({
  browser,
  makeUser,
}) => {
  test.slow();
  const seller = await makeUser('photoseller');
  const buyer = await makeUser('photobuyer');
  const listing = await createListing(seller, { name: 'calculus photos', courseNumber: '120' });
  const { conversationId } = await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: 'Is the cover torn?' },
  });
  const thread = `/messages/${conversationId}`;
  const phone = await openBrowser(browser, buyer, 375, thread);
  const laptop = await openBrowser(browser, seller, 1280, thread);
  const laptopLog = laptop.getByRole('log', { name: 'Messages' });
  await expect(laptopLog.getByText('Is the cover torn?')).toBeVisible();

  const photo = await phonePhoto();
  expect(await hasExif(photo)).toBe(true);

  await test.step('the buyer picks a phone photo (with GPS), sees its preview, and sends it', async () => {
    await phone.getByLabel(/Add photos/).setInputFiles([jpegFile('IMG_0042.jpg', photo)]);
    const preview = phone.getByRole('list', { name: 'Photos to send' });
    await expect(preview.getByRole('img', { name: 'Photo 1 of 1' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(preview.getByRole('button', { name: 'Remove photo 1' })).toBeVisible();
    await phone.getByRole('textbox', { name: 'Message' }).fill('Here is the cover');
    await phone.getByRole('button', { name: 'Send' }).click();
    await expect(preview).toHaveCount(0);
  });

  const photos = laptopLog.getByRole('list', { name: `Photos from ${buyer.username}` });
  const thumbnail = photos.getByRole('img');
  await test.step('the seller sees it arrive live in the thread, and opens it full screen', async () => {
    await expect(thumbnail).toHaveCount(1);
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    const opener = photos.getByRole('button');
    await opener.click();
    const viewer = laptop.getByRole('dialog');
    await expect(viewer).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Close' })).toBeFocused();
    await expectNoAxeViolations(laptop);
    await laptop.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  await test.step('the bytes the seller downloads carry no EXIF; the public image address serves nothing', async () => {
    const src = await thumbnail.getAttribute('src');
    const full = src!.replace(/\/640\.webp$/, '/full.webp');
    const answer = await laptop.request.get(full);
    expect(answer.status()).toBe(200);
    expect(await hasExif(await answer.body())).toBe(false);
    const id = full.split('/').at(-2)!;
    expect(imageIdFromUrl(imageUrl(id))).toBe(id);
    expect((await laptop.request.get(imageUrl(id, 'full'))).status()).toBe(404);
  });
});
