import { expect, test } from '@playwright/test';

test('the server answers health and serves the web app', async ({ page, request }) => {
  const health = await request.get('/api/health');
  expect(await health.json()).toMatchObject({ server: 'up', database: 'up' });
  await page.goto('/');
  await expect(page.getByText('Campus Books').first()).toBeVisible();
});
