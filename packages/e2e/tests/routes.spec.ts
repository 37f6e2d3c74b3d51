import { PRODUCT_VERSION } from '@campus-books/common/version';
import { expect, signInBrowser, test } from '../src/fixtures';

test('/about is a real page about the product', async ({ page }) => {
  await page.goto('/about');
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Uh-Oh! Page Not Found')).toHaveCount(0);
  await expect(page.getByRole('main')).toContainText(/privacy/i);
  // The release running, as GET /api/health and CHANGELOG.md name it.
  await expect(page.getByRole('main')).toContainText(`version ${PRODUCT_VERSION}`);
  await expect(page.getByRole('contentinfo')).toContainText(`Version ${PRODUCT_VERSION}`);
});

test('/404 and any unknown path show the not-found page with a way home', async ({ page }) => {
  await page.goto('/404');
  await expect(page.getByRole('heading', { name: 'Uh-Oh! Page Not Found' })).toBeVisible();
  await expect(page.getByText('Page Not Found', { exact: true })).toBeVisible();

  await page.goto('/no/such/page?x=1');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: 'Uh-Oh! Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: /Sell\/Buy your Books/ })).toBeVisible();
});

test('retired mock pages lead somewhere useful', async ({ page }) => {
  await page.goto('/new-search?searchTerm=physics');
  await expect(page).toHaveURL(/\/search\?.*searchTerm=physics/);
  await page.goto('/updated-sign-up');
  await expect(page).toHaveURL(/\/sign-up$/);
  await page.goto('/popup');
  await expect(page).toHaveURL(/\/$/);
});

test('/sell, the address a student guesses, leads to the create-listing page', async ({
  page,
  makeUser,
}) => {
  // The server answers it with the app, not a 404.
  expect((await page.request.get('/sell')).status()).toBe(200);
  await page.goto('/sell');
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fcreate-listing$/);
  const user = await makeUser('guesser');
  await signInBrowser(page, user, '/sell');
  await expect(page).toHaveURL(/\/create-listing$/);
  await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
});

test('a protected page sends a visitor to sign in, and back there after', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('returner');
  for (const path of ['/profile', '/update-listing/00000000-0000-4000-8000-000000000000']) {
    await page.goto(path);
    await expect(page).toHaveURL(`/sign-in?redirectTo=${encodeURIComponent(path)}`);
  }
  await page.goto('/create-listing');
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fcreate-listing$/);
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/create-listing$/);
  await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
});

test('the API and image URLs never answer with the web app', async ({ request }) => {
  const api = await request.get('/api/no-such-route');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ success: false, statusCode: 404 });
  const image = await request.get('/api/images/00000000-0000-4000-8000-000000000000/640.webp');
  expect(image.status()).toBe(404);
});

test('the footer offers a signed-in student their own pages, and the session follows a sign-out made elsewhere', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('footer');
  const footer = page.getByRole('navigation', { name: 'Footer' });
  const signInForm = page.getByRole('heading', { name: 'Sign In' });
  const signedOutElsewhere = async () =>
    expect((await page.request.post('/api/auth/signout')).ok()).toBe(true);

  await test.step('signed in: no Sign Up or Sign In in the footer', async () => {
    await signInBrowser(page, student, '/my-courses');
    await expect(footer.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Messages' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Sign Up' })).toHaveCount(0);
    await expect(footer.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  });

  await test.step('signed out by a request the page did not make, then to /sign-in within the app', async () => {
    await signedOutElsewhere();
    // A link followed inside the app (no page load): the router, not the server, answers it.
    // (/my-courses renders in the browser: the app is running once its footer shows.)
    await page.evaluate(() => {
      window.history.pushState(null, '', '/sign-in?redirectTo=%2Fabout');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(signInForm).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fabout$/);
    await expect(footer.getByRole('link', { name: 'Sign In' })).toBeVisible();
  });

  await test.step('signed out elsewhere, then /sign-in opened afresh: the copy on this device is not believed', async () => {
    await signInBrowser(page, student, '/my-courses');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('campus-books:session')))
      .toContain(student.id);
    await signedOutElsewhere();
    await page.goto('/sign-in?redirectTo=%2Fabout');
    await expect(signInForm).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fabout$/);
  });
});
