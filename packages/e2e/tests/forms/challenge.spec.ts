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

test('leaving the page while the check is solving stops its workers', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the workers are the same on every screen');
  // Every worker the page starts, and every one it stops.
  await page.addInitScript(() => {
    const log = { started: 0, stopped: 0 };
    Object.assign(window, { workerLog: log });
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        log.started += 1;
      }
      override terminate() {
        log.stopped += 1;
        super.terminate();
      }
    };
  });
  const workers = () =>
    page.evaluate(
      () => (window as unknown as { workerLog: { started: number; stopped: number } }).workerLog,
    );
  await page.route('**/api/auth/signin', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        statusCode: 429,
        message: 'Too many attempts from your network.',
        challengeRequired: true,
      }),
    }),
  );
  // A challenge as hard as a slow phone finds it: each try costs far more, so solving takes long.
  await page.route('**/api/auth/challenge', async (route) => {
    const response = await route.fetch();
    const challenge = (await response.json()) as { parameters: { cost: number } };
    challenge.parameters.cost = 500_000;
    await route.fulfill({ response, json: challenge });
  });

  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill('someone@e2e.campus.edu');
  await page.getByLabel('Password').fill('a password long enough');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('challenge')).toBeVisible();
  await expect.poll(async () => (await workers()).started).toBeGreaterThan(0);
  expect((await workers()).stopped).toBe(0);

  await page
    .getByRole('navigation', { name: 'Footer' })
    .getByRole('link', { name: 'About' })
    .click();
  await expect(page).toHaveURL(/\/about$/);
  await expect
    .poll(async () => {
      const { started, stopped } = await workers();
      return started - stopped;
    })
    .toBe(0);
});
