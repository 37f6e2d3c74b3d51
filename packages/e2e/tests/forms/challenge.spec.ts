import { expect, test } from '../../src/fixtures';

/**
 * The e2e server's limits are out of the way, so the "address past its ceiling" answer is played by
 * the page's network: the first sign-in answers what the server answers then
 * (429 with challengeRequired); the browser must load the check, solve the server's real challenge,
 * and send the sign-in again with the solution, which the real server then answers.
 */
test('sign-in past the address ceiling: the check loads, solves and signs in', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser('challenged');
  const widgetScripts: string[] = [];
  page.on('request', (request) => {
    if (/challenge-widget/.test(request.url())) widgetScripts.push(request.url());
  });
  const bodies: Record<string, unknown>[] = [];
  await page.route('**/api/auth/signin', async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    bodies.push(body);
    if (bodies.length === 1) {
      await route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          statusCode: 429,
          message:
            'Too many attempts from your network. Please confirm you are not a robot and try again.',
          challengeRequired: true,
        }),
      });
      return;
    }
    await route.continue();
  });

  await page.goto('/sign-in');
  expect(widgetScripts).toHaveLength(0);
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();

  await expect(
    page.getByText('Too many attempts from your network.', { exact: false }),
  ).toBeVisible();
  await expect(page).not.toHaveURL(/\/sign-in/, { timeout: 30_000 });
  expect(widgetScripts.length).toBeGreaterThan(0);
  expect(bodies).toHaveLength(2);
  expect(bodies[0]!.altcha).toBeUndefined();
  expect(typeof bodies[1]!.altcha).toBe('string');
  const payload = JSON.parse(Buffer.from(String(bodies[1]!.altcha), 'base64').toString());
  expect(payload.challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
  expect(payload.solution).toBeTruthy();
});
