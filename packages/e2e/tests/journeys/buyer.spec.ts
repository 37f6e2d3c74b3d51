import { displayName } from '@campus-books/common/display';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { createListing } from '../../src/users';

test('a buyer finds a book by a misspelled name and contacts the seller', async ({
  page,
  browser,
  request,
  makeUser,
}) => {
  const seller = await makeUser('seller');
  const buyer = await makeUser('buyer');
  const bookName = `Calculus ${seller.lastName.slice(-5)}`;
  const listing = await createListing(seller, { name: bookName, courseNumber: '121' });

  await test.step('search "calclus" finds "Calculus"', async () => {
    await signInBrowser(page, buyer);
    await page.getByPlaceholder('Start Searching...').fill('calclus');
    await page.getByPlaceholder('Start Searching...').press('Enter');
    const results = page.getByRole('region', { name: 'Listing results' });
    await results.getByRole('link', { name: displayName(bookName), exact: true }).click();
    await expect(page).toHaveURL(`/listing/${listing._id}`);
    await expect(page.getByRole('heading', { level: 1, name: bookName })).toBeVisible();
  });

  await test.step('contact the seller and see the GroupMe link', async () => {
    await page.getByRole('link', { name: 'Contact Seller' }).click();
    await expect(page).toHaveURL(`/contact-seller/${seller.id}`);
    await expect(page.getByRole('heading', { name: 'Great Choice!' })).toBeVisible();
    const groupme = page.getByRole('link', { name: new RegExp(`^${seller.username}`) });
    await expect(groupme).toHaveAttribute('href', seller.groupmelink);
    await expect(page.getByText(seller.email)).toHaveCount(0);
  });

  await test.step('a signed-out visitor is asked to sign in first', async () => {
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/listing/${listing._id}`);
    const signIn = visitor.getByRole('link', { name: 'Sign In to Contact Seller' });
    await expect(signIn).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Contact Seller', exact: true })).toHaveCount(0);
    await signIn.click();
    await expect(visitor).toHaveURL(/\/sign-in\?redirectTo=/);
    await visitor.goto(`/contact-seller/${seller.id}`);
    await expect(visitor.getByRole('link', { name: 'Sign in to continue' })).toBeVisible();
    await expect(visitor.getByRole('link', { name: new RegExp(seller.username) })).toHaveCount(0);
    await visitorContext.close();
    // The API agrees: the seller's contact is for signed-in students only.
    expect((await request.get(`/api/user/get/${seller.id}`)).status()).toBe(401);
  });
});
