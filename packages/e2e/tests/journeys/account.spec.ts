import { imageIdFromUrl } from '@campus-books/common/images';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { imagePicker, jpegFile, pickImages } from '../../src/picker';
import { createListing } from '../../src/users';

test('a student updates the profile and avatar, then deletes the account', async ({
  page,
  request,
  makeUser,
}) => {
  const user = await makeUser('leaver');
  const listing = await createListing(user, {
    name: `microeconomics ${user.lastName}`,
    courseNumber: '102',
  });
  const imageUrl = listing.imageUrls[0]!;
  expect((await request.get(imageUrl)).status()).toBe(200);
  const newName = `Renamed ${user.lastName}`;
  const newLink = `${user.groupmelink}-new`;
  let avatarUrl = '';

  await test.step('update the username and GroupMe link', async () => {
    await signInBrowser(page, user, '/profile');
    await page.getByLabel('Username').fill(newName);
    await page.getByLabel('GroupMe link').fill(newLink);
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Username')).toHaveValue(newName);
    await expect(page.getByLabel('GroupMe link')).toHaveValue(newLink);
  });

  await test.step('change the avatar', async () => {
    const form = page.locator('form').filter({ has: page.getByLabel('Username') });
    await pickImages(form, [jpegFile('me.jpg', await bookCover(200))]);
    await expect(imagePicker(form).thumbnails.first()).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated' })).toBeVisible();
    const me = await user.api.call('GET /api/auth/me');
    expect(me.avatar).toMatch(/^\/api\/images\//);
    avatarUrl = me.avatar!;
    // The header shows the new avatar (at whichever width it picks).
    const avatarId = imageIdFromUrl(avatarUrl);
    await expect(page.getByRole('banner').locator(`img[src*="${avatarId}"]`)).toBeAttached();
  });

  await test.step('delete the account: its listing and images are gone', async () => {
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Sign Up' }).first()).toBeAttached();
    expect((await request.get(`/api/listing/get/${listing._id}`)).status()).toBe(404);
    expect((await request.get(imageUrl)).status()).toBe(404);
    expect((await request.get(avatarUrl)).status()).toBe(404);
    expect((await user.api.answer('GET /api/auth/me')).status).toBe(401);
  });
});
